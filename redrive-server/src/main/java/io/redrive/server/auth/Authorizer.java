package io.redrive.server.auth;

/**
 * Decides whether a request may do something. Thread-safe.
 *
 * <p>Contract used by the HTTP layer: {@code authorize(header, permission, queue)} with the raw
 * {@code Authorization} header (may be null), the permission the endpoint needs, and the queue the
 * call touches (null for calls that are not about one queue, e.g. listing queues). Throws {@link
 * AuthException} with status 401 (missing, malformed or unknown key) or 403 (role or queue scope
 * does not allow it); returns the principal otherwise. Keys are compared in constant time and never
 * logged.
 */
public interface Authorizer {
  Principal authorize(String authorizationHeader, Permission permission, String queue);

  /** True when at least one key is configured (otherwise every request is anonymous admin). */
  boolean enabled();

  /**
   * Secret bytes from which the dashboard derives the key that seals its session cookies, the same
   * on every server node configured alike (so a cookie from one node opens on another), or null for
   * a random key per process. Never the keys themselves.
   */
  default byte[] sessionKeyMaterial() {
    return null;
  }
}
