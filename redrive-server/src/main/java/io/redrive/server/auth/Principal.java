package io.redrive.server.auth;

/**
 * Who made a request: the key's name (never the secret) and role; {@code anonymous} when the server
 * runs without keys (loopback only).
 */
public record Principal(String name, Role role, boolean anonymous) {}
