package io.redrive.error;

/** The request is well formed but conflicts with the current state; nothing was changed. */
public class ConflictException extends RedriveException {
  public ConflictException(String code, String message) {
    super(code, message);
  }
}
