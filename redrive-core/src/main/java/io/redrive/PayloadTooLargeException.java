package io.redrive;

/** A payload is larger than the engine accepts; the message was not enqueued. */
public final class PayloadTooLargeException extends IllegalArgumentException {
  private final int bytes;
  private final int limit;

  /** A payload of {@code bytes} for {@code field}, over {@code limit}. */
  public PayloadTooLargeException(String field, int bytes, int limit) {
    super(field + ": payload is " + bytes + " bytes, larger than the limit of " + limit + " bytes");
    this.bytes = bytes;
    this.limit = limit;
  }

  public int bytes() {
    return bytes;
  }

  public int limit() {
    return limit;
  }
}
