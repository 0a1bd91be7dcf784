package io.redrive.server.auth;

import io.redrive.error.RedriveException;

/**
 * A request was not authenticated (401, {@code UNAUTHORIZED}) or not allowed (403, {@code
 * FORBIDDEN}).
 */
public final class AuthException extends RedriveException {
  private final int status;

  private AuthException(int status, String code, String message) {
    super(code, message);
    this.status = status;
  }

  public static AuthException unauthorized(String message) {
    return new AuthException(401, "UNAUTHORIZED", message);
  }

  public static AuthException forbidden(String message) {
    return new AuthException(403, "FORBIDDEN", message);
  }

  public int status() {
    return status;
  }
}
