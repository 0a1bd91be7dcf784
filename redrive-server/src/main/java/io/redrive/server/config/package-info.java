/**
 * The server's settings and {@code redrive.toml}: loading, validation with paths, queue
 * declarations.
 */
package io.redrive.server.config;
