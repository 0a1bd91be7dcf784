package io.redrive.test;

import java.util.List;
import java.util.function.Predicate;

/**
 * What a drain ran, in order: every handler run with its outcome. A message retried within one
 * drain appears once per attempt.
 *
 * @param runs each run (and each message poisoned at lease), in the order they settled
 */
public record DrainReport(List<DrainedMessage> runs) {
  public DrainReport {
    runs = List.copyOf(runs);
  }

  /** Runs that completed their message. */
  public List<DrainedMessage> completed() {
    return only(DrainedMessage::completed);
  }

  /** Runs that failed, leaving their message to be retried. */
  public List<DrainedMessage> failed() {
    return only(DrainedMessage::failed);
  }

  /** Runs whose message died. */
  public List<DrainedMessage> died() {
    return only(DrainedMessage::died);
  }

  /** Ids of the messages completed, in order. */
  public List<String> completedIds() {
    return completed().stream().map(DrainedMessage::id).toList();
  }

  private List<DrainedMessage> only(Predicate<DrainedMessage> p) {
    return runs.stream().filter(p).toList();
  }

  @Override
  public String toString() {
    return "DrainReport[completed="
        + completed().size()
        + ", failed="
        + failed().size()
        + ", died="
        + died().size()
        + ", runs="
        + runs
        + "]";
  }
}
