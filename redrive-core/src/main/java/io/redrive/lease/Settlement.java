package io.redrive.lease;

import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import java.util.Objects;

/**
 * The answer to one {@link SettleCommand}: what it did to the message ({@link #result()}), or why
 * it could not ({@link #lost()}); exactly one of the two is set. A lost command changed nothing.
 *
 * @param command the command answered
 * @param result what the settle did, or null when lost
 * @param lost why nothing was done, or null when settled
 */
public record Settlement(SettleCommand command, SettleResult result, Lost lost) {

  /** Why a command settled nothing. */
  public enum Lost {
    /** No message has the token's id (and no completion of it is remembered). */
    NOT_FOUND,
    /** The token is not the message's current lease, or the message is past its deadline. */
    NOT_CURRENT,
    /** An earlier command of the same call already named this message; this one was not run. */
    DUPLICATE
  }

  public Settlement {
    Objects.requireNonNull(command, "command");
    if ((result == null) == (lost == null)) {
      throw new IllegalArgumentException("a settlement has either a result or a lost reason");
    }
  }

  /** A command that settled its message. */
  public static Settlement settled(SettleCommand command, SettleResult result) {
    return new Settlement(command, result, null);
  }

  /** A command that changed nothing. */
  public static Settlement lost(SettleCommand command, Lost why) {
    return new Settlement(command, null, why);
  }

  /** True when the command settled its message. */
  public boolean settled() {
    return result != null;
  }

  /**
   * The result, for callers that settle one lease and treat a lost one as an error.
   *
   * @throws LeaseNotFoundException when no message has the token's id
   * @throws LeaseLostException when the token is not (or no longer) the message's current lease
   */
  public SettleResult orThrow() {
    if (result != null) {
      return result;
    }
    String id = command.messageId();
    throw lost == Lost.NOT_FOUND ? new LeaseNotFoundException(id) : new LeaseLostException(id);
  }
}
