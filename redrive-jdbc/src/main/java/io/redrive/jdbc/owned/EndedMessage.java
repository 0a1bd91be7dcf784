package io.redrive.jdbc.owned;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One end of a message, as its queue's owner hears of it.
 *
 * @param id the message's id
 * @param queue its queue
 * @param attempts its attempts, counted at lease: the attempt that ended
 * @param ending how it ended
 * @param result the handler's result JSON (a completion only), or null
 * @param retryAfter the delay the handler asked for before a retry (a failure only), or null
 * @param story reads the message's attempt story as the end left it, this end included (read only
 *     when asked: nobody reads an ordinary queue's; nothing is left of a moved or discarded one)
 * @param at when it ended
 */
public record EndedMessage(
    String id,
    String queue,
    int attempts,
    Ending ending,
    String result,
    Duration retryAfter,
    Story story,
    Instant at) {

  /** How a message ended. */
  public enum Ending {
    /** Its handler completed it. */
    COMPLETED,
    /** Its handler failed it (or gave up at once). */
    FAILED,
    /** It died as poison at a lease, no handler having given a result. */
    POISONED,
    /** Its deadline passed, at a lease or by the sweep. */
    EXPIRED;

    /** The ending of a message that died for {@code reason}. */
    public static Ending ofDeath(FailureReason reason) {
      return switch (reason) {
        case POISON -> POISONED;
        case EXPIRED -> EXPIRED;
        default -> FAILED;
      };
    }
  }

  /** The attempt story of an ended message, read in the transaction that ended it. */
  @FunctionalInterface
  public interface Story {
    List<HistoryEntry> read() throws SQLException;
  }
}
