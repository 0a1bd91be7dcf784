package io.redrive.error;

/** Something named by the caller does not exist: a queue, a message or a lease. */
public class NotFoundException extends RedriveException {
  public NotFoundException(String code, String message) {
    super(code, message);
  }
}
