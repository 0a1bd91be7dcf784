package io.redrive.error;

/** The message id is unknown (never existed, completed, dropped or moved). */
public final class MessageNotFoundException extends NotFoundException {
  private final String messageId;

  public MessageNotFoundException(String messageId) {
    super("MESSAGE_NOT_FOUND", "message \"" + messageId + "\" does not exist");
    this.messageId = messageId;
  }

  /** Not found, with a sentence on where it went (e.g. "it was dead-lettered: now ..."). */
  public MessageNotFoundException(String messageId, String whereItWent) {
    super("MESSAGE_NOT_FOUND", "message \"" + messageId + "\" does not exist: " + whereItWent);
    this.messageId = messageId;
  }

  public String messageId() {
    return messageId;
  }
}
