package io.redrive.error;

/**
 * The lease token names no message that exists any more (it completed, was dropped or moved), or
 * was never issued.
 */
public final class LeaseNotFoundException extends NotFoundException {
  private final String messageId;

  public LeaseNotFoundException(String messageId) {
    super("LEASE_NOT_FOUND", "no lease: message \"" + messageId + "\" does not exist");
    this.messageId = messageId;
  }

  public String messageId() {
    return messageId;
  }
}
