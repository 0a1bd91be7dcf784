/**
 * The CLI's HTTP client of the Redrive API (docs/api.md): requests over {@code java.net.http}, JSON
 * trees in and out, and every failure as a {@link io.redrive.cli.client.CliException}.
 */
package io.redrive.cli.client;
