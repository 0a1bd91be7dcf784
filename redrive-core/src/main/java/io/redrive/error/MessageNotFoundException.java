package io.redrive.error;

/** The message id is unknown (never existed, completed, dropped or moved). */
public final class MessageNotFoundException extends NotFoundException {
  private final String messageId;

  public MessageNotFoundException(String messageId) {
    super("MESSAGE_NOT_FOUND", "message \"" + messageId + "\" does not exist");
    this.messageId = messageId;
  }

  public String messageId() {
    return messageId;
  }
}
