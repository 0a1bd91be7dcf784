package io.redrive.error;

/**
 * Root of every exception Redrive throws on purpose.
 *
 * <p>Each subclass carries a stable machine {@link #code()} (for the HTTP API and the CLI) and a
 * human message that names the problem. Caller mistakes are reported as {@link
 * IllegalArgumentException} instead, naming the option and the value.
 */
public abstract class RedriveException extends RuntimeException {
  private final String code;

  protected RedriveException(String code, String message) {
    super(message);
    this.code = code;
  }

  protected RedriveException(String code, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  /** Stable machine-readable code, e.g. {@code LEASE_LOST}. */
  public String code() {
    return code;
  }
}
