package io.redrive.store;

import io.redrive.lease.SettleCommand;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Input of {@link Store#settle}.
 *
 * @param commands what to do, any mix of kinds; at least one
 * @param now the settle time: a lease whose message is past its deadline at {@code now} is lost
 * @param completionWindow how long the store remembers each completion (zero: not at all); within
 *     it, the same token completing again is answered as completed ({@code repeated})
 * @param completedRetention how long a completed message's story is kept when its queue does not
 *     say ({@link io.redrive.queue.QueuePolicy#completedRetention} null); zero keeps none
 * @param allOrNothing when true, one lost command rolls the whole call back and is thrown ({@link
 *     io.redrive.error.LeaseNotFoundException} or {@link io.redrive.error.LeaseLostException}); a
 *     cascade release over HTTP wants this, a worker does not
 */
public record SettleParams(
    List<SettleCommand> commands,
    Instant now,
    Duration completionWindow,
    Duration completedRetention,
    boolean allOrNothing) {
  public SettleParams {
    commands = List.copyOf(commands);
    completedRetention = completedRetention == null ? Duration.ZERO : completedRetention;
    if (commands.isEmpty()) {
      throw new IllegalArgumentException("commands: at least one settle command is required");
    }
  }

  /** Settle input whose queues keep no completed message unless they say so. */
  public SettleParams(
      List<SettleCommand> commands, Instant now, Duration completionWindow, boolean allOrNothing) {
    this(commands, now, completionWindow, Duration.ZERO, allOrNothing);
  }

  /** Commands settled each on its own, completions not remembered. */
  public SettleParams(List<SettleCommand> commands, Instant now) {
    this(commands, now, Duration.ZERO, Duration.ZERO, false);
  }
}
