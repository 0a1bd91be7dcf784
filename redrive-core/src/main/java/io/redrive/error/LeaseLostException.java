package io.redrive.error;

/**
 * The lease token is no longer the message's current lease: the message was re-leased by someone
 * else, already settled, or is past its deadline ({@code expireAt}). Nothing was changed.
 */
public final class LeaseLostException extends ConflictException {
  private final String messageId;

  public LeaseLostException(String messageId) {
    super(
        LEASE_LOST,
        "lease lost: message \""
            + messageId
            + "\" is no longer held by this lease token (re-leased, settled, or past its"
            + " deadline)");
    this.messageId = messageId;
  }

  public String messageId() {
    return messageId;
  }
}
