package io.redrive.server.ui;

import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.Fingerprint;
import java.util.List;

/**
 * One dead-letter group as its card shows it.
 *
 * @param group the group (queue, key, count, first and last seen, sample)
 * @param pieces what grouped its messages: reason, type, exception class, normalised message, top
 *     frames
 * @param mayAct true when the viewer may retry, redrive or drop its messages
 * @param sources the queues its messages were moved from, which a redrive sends them back to: those
 *     naming its queue as their dead-letter queue, else the sample's source; empty when they were
 *     not moved (a redrive has nowhere to send them)
 */
public record GroupCard(DeadGroup group, Fingerprint pieces, boolean mayAct, List<String> sources) {

  public GroupCard {
    sources = List.copyOf(sources);
  }

  /**
   * True when its messages are copies moved from another queue: there the usual intent is a redrive
   * back to that queue, since a retry would make them ready where nothing consumes them.
   */
  public boolean redrivable() {
    return !sources.isEmpty();
  }

  /** Where a redrive sends them, for its button: the one source queue, or their queues. */
  public String redriveTarget() {
    return sources.size() == 1 ? sources.get(0) : "their queues";
  }
}
