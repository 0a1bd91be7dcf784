package io.redrive.bench.scenario;

import io.redrive.message.NewMessage;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.Rate;
import java.time.Duration;

/**
 * What a queue cell of the peer comparison uses of issue 32's flow controls, named by the cell's
 * suffix ({@code drain-16x10+prio}): the cost of a control when used, beside the plain cell's cost
 * when unused. None of them binds: the limits leave room for every handler thread, the rate is far
 * above any drain here and every unique key is new, so what is measured is the bookkeeping alone.
 * Only Redrive has them; the other systems run a suffixed cell as the plain one.
 */
public enum QueueFeature {
  /** Nothing used: the plain cell. */
  NONE(""),
  /** Priorities 0–9 in turn, the queue's default aging. */
  PRIO("prio"),
  /** 100 limit keys in turn, at most 8 running per key: the limited lease path. */
  LIMITS("limits"),
  /** A queue-wide rate of 1 000 000 per second: the limited path with a token bucket. */
  RATE("rate"),
  /** A unique key per message, kept while it waits. */
  UNIQUE("unique");

  private final String suffix;

  QueueFeature(String suffix) {
    this.suffix = suffix;
  }

  /** The feature a cell suffix names ({@code ""} for none). */
  public static QueueFeature of(String suffix) {
    for (QueueFeature f : values()) {
      if (f.suffix.equals(suffix)) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown cell feature: +" + suffix);
  }

  /** The cell-name suffix, {@code +prio} and so on, empty for none. */
  public String suffix() {
    return this == NONE ? "" : "+" + suffix;
  }

  /** The bench queue's policy under this feature. */
  QueuePolicy policy() {
    return switch (this) {
      case LIMITS -> QueuePolicy.defaults().withLimits(new FlowLimits(null, 8, null, null));
      case RATE ->
          QueuePolicy.defaults()
              .withLimits(
                  new FlowLimits(null, null, Rate.of(1_000_000, Duration.ofSeconds(1)), null));
      default -> QueuePolicy.defaults();
    };
  }

  /** The {@code i}-th message of a run under this feature. */
  NewMessage message(long i) {
    return switch (this) {
      case PRIO -> Nodes.MESSAGE.withPriority((int) (i % 10));
      case LIMITS -> Nodes.MESSAGE.withLimitKey("k" + (i % 100));
      case UNIQUE ->
          NewMessage.builder(Nodes.QUEUE, Nodes.TYPE)
              .payload(Nodes.MESSAGE.payload())
              .uniqueKey("u" + i)
              .build();
      default -> Nodes.MESSAGE;
    };
  }
}
