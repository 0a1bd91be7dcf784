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
}
