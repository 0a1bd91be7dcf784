package io.redrive;

import io.redrive.lease.LeaseRequest;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettledThenLeased;
import io.redrive.lease.Settlement;
import io.redrive.store.LeaseParams;
import io.redrive.store.SettleParams;
import io.redrive.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How the engine settles leases for every caller (the Java worker, the HTTP paths, an application):
 * commands are checked and bounded, failures with reason UNREGISTERED_HANDLER go to {@link
 * UnregisteredHandlerFailures}, everything else goes to the store in one {@link Store#settle} call,
 * and each settled command is counted in the metrics. Thread-safe, no state of its own.
 */
final class Settles {
  private final Store store;
  private final Clock clock;
  private final Validation validation;
  private final UnregisteredHandlerFailures unregistered;
  private final EngineMetrics metrics;
  private final Duration completionWindow;
  private final Duration completedRetention;

  Settles(
      Store store,
      Clock clock,
      Validation validation,
      UnregisteredHandlerFailures unregistered,
      EngineMetrics metrics,
      Duration completionWindow,
      Duration completedRetention) {
    this.store = store;
    this.completedRetention = completedRetention;
    this.clock = clock;
    this.validation = validation;
    this.unregistered = unregistered;
    this.metrics = metrics;
    this.completionWindow = completionWindow;
  }

  /** Settles one command; a lost lease is answered, not thrown. */
  Settlement one(SettleCommand command) {
    return each(List.of(command)).get(0);
  }

  /**
   * Settles each command on its own terms, in one store transaction (UNREGISTERED_HANDLER failures
   * each in one of their own): one settlement per command, in order; a lost lease is answered, not
   * thrown. Every command is checked before anything changes.
   */
  List<Settlement> each(List<SettleCommand> commands) {
    List<SettleCommand> checked = checked(commands);
    Instant now = clock.instant();
    Settlement[] out = new Settlement[checked.size()];
    List<SettleCommand> toStore = new ArrayList<>(checked.size());
    List<Integer> at = new ArrayList<>(checked.size());
    Set<String> named = new HashSet<>();
    Set<String> unregisteredNamed = new HashSet<>();
    for (int i = 0; i < checked.size(); i++) {
      SettleCommand c = checked.get(i);
      if (c instanceof SettleCommand.Fail f && UnregisteredHandlerFailures.applies(f)) {
        if (named.add(c.messageId())) {
          unregisteredNamed.add(c.messageId());
          out[i] = unregistered.abandon(f, now);
        } else {
          out[i] = Settlement.lost(c, Settlement.Lost.DUPLICATE);
        }
      } else if (unregisteredNamed.contains(c.messageId())) {
        // named first by an unregistered failure, which the store does not see in this call
        out[i] = Settlement.lost(c, Settlement.Lost.DUPLICATE);
      } else {
        named.add(c.messageId()); // the store answers later duplicates among its own commands
        toStore.add(c);
        at.add(i);
      }
    }
    if (!toStore.isEmpty()) {
      List<Settlement> answered =
          store.settle(new SettleParams(toStore, now, completionWindow, completedRetention, false));
      for (int k = 0; k < answered.size(); k++) {
        out[at.get(k)] = answered.get(k);
      }
    }
    List<Settlement> result = Arrays.asList(out);
    counted(result, now);
    return result;
  }

  /**
   * Settles the commands, then leases, in one store call ({@link Store#settleThenLease}); null,
   * with nothing done, when a command is a failure with reason UNREGISTERED_HANDLER, which is
   * settled in a transaction of its own (the caller then settles and leases apart).
   */
  SettledThenLeased thenLease(List<SettleCommand> commands, LeaseParams lease) {
    List<SettleCommand> checked = checked(commands);
    for (SettleCommand c : checked) {
      if (c instanceof SettleCommand.Fail f && UnregisteredHandlerFailures.applies(f)) {
        return null;
      }
    }
    Instant now = lease.now();
    SettledThenLeased done =
        store.settleThenLease(
            new SettleParams(checked, now, completionWindow, completedRetention, false), lease);
    counted(done.settlements(), now);
    return done;
  }

  /**
   * Settles all commands or none: the first lost one rolls the call back and is thrown ({@link
   * io.redrive.error.LeaseNotFoundException} or {@link io.redrive.error.LeaseLostException}).
   */
  List<Settlement> allOrNothing(List<SettleCommand> commands) {
    List<SettleCommand> checked = checked(commands);
    Instant now = clock.instant();
    List<Settlement> result =
        store.settle(new SettleParams(checked, now, completionWindow, completedRetention, true));
    counted(result, now);
    return result;
  }

  private List<SettleCommand> checked(List<SettleCommand> commands) {
    Validation.sized("commands", "settle command", commands, LeaseRequest.MAX_BATCH);
    List<SettleCommand> checked = new ArrayList<>(commands.size());
    for (SettleCommand c : commands) {
      checked.add(checked(c));
    }
    return checked;
  }

  /** The command as the store may take it: refused when invalid, free text bounded. */
  private SettleCommand checked(SettleCommand command) {
    if (command == null) {
      throw new IllegalArgumentException("command: is required");
    }
    if (command instanceof SettleCommand.Fail f) {
      validation.fail(f);
      return new SettleCommand.Fail(
          f.token(),
          f.reason(),
          Validation.bounded(f.message(), Validation.MAX_ERROR_MESSAGE),
          f.retryable(),
          f.retryAfter(),
          f.progress(),
          Validation.bounded(f.stackTrace(), Validation.MAX_STACK_TRACE),
          io.redrive.failure.Dependencies.require("dependency", f.dependency()));
    }
    if (command instanceof SettleCommand.Abandon a) {
      return new SettleCommand.Abandon(
          a.token(),
          Validation.delay("delay", a.delay()),
          a.refund(),
          Validation.bounded(a.note(), Validation.MAX_ERROR_MESSAGE),
          Validation.abandonReason(a.reason()),
          a.hold());
    }
    return command;
  }

  private void counted(List<Settlement> settlements, Instant now) {
    for (Settlement s : settlements) {
      if (!s.settled()) {
        continue;
      }
      SettleCommand c = s.command();
      if (c instanceof SettleCommand.Complete) {
        metrics.settled(s.result(), EngineMetrics.Settle.COMPLETED, null, now);
      } else if (c instanceof SettleCommand.Fail f) {
        // an unregistered type's failure is settled as an abandon but counted as the failure it is
        metrics.settled(s.result(), EngineMetrics.Settle.FAILED, f.reason(), now);
      } else if (c instanceof SettleCommand.Abandon) {
        metrics.settled(s.result(), EngineMetrics.Settle.ABANDONED, null, now);
      } else {
        metrics.settled(s.result(), EngineMetrics.Settle.RELEASED, null, now);
      }
    }
  }
}
