/**
 * How the CLI prints: aligned tables and key/value blocks for people, the server's JSON
 * (pretty-printed) for scripts, and the attempt-history timeline of {@code message show}.
 */
package io.redrive.cli.output;
