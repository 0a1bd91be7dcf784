package io.redrive.test;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.lease.Settlement;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.worker.DirectRun;
import io.redrive.worker.HandlerRegistration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;

/**
 * Leases a queue's due messages in batches, runs each with the handler registered for its type (via
 * {@link DirectRun}, as a worker would) and settles them, until nothing is due — moving the clock
 * to the next scheduled retry when asked to follow retries.
 */
final class Drainer {
  /** The worker id drained messages record in their attempt history. */
  static final String WORKER_ID = "redrive-test";

  private static final int BATCH = 100;
  private static final int MAX_CLOCK_MOVES = 10_000;

  private final Redrive engine;
  private final TestClock clock; // null: a wrapped engine's clock, which the kit cannot move
  private final BiFunction<String, String, HandlerRegistration> registrations;

  Drainer(
      Redrive engine,
      TestClock clock,
      BiFunction<String, String, HandlerRegistration> registrations) {
    this.engine = engine;
    this.clock = clock;
    this.registrations = registrations;
  }

  DrainReport drain(String queue, Drain options) {
    engine.getQueue(queue); // an unknown queue fails here, by name
    List<DrainedMessage> runs = new ArrayList<>();
    ExecutorService pool =
        options.threads() > 1 ? Executors.newFixedThreadPool(options.threads()) : null;
    try {
      int moves = 0;
      while (runs.size() < options.maxMessages()) {
        int want = Math.min(BATCH, options.maxMessages() - runs.size());
        LeaseResult leased = engine.lease(new LeaseRequest(queue, WORKER_ID, want, null));
        leased.poisoned().forEach(id -> runs.add(poisoned(id)));
        leased.crashPoisoned().forEach(id -> runs.add(poisoned(id)));
        if (!leased.leased().isEmpty()) {
          runs.addAll(runBatch(queue, leased.leased(), pool));
          continue;
        }
        Optional<Instant> next = options.followingRetries() ? nextRetry(queue) : Optional.empty();
        if (next.isEmpty()
            || !next.get().isAfter(engine.clock().instant())
            || ++moves > MAX_CLOCK_MOVES) {
          break;
        }
        if (clock == null) {
          throw new IllegalStateException(
              "drain: following retries moves the clock, and the engine's clock is not a TestClock");
        }
        clock.set(next.get());
      }
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
    return new DrainReport(runs);
  }

  private List<DrainedMessage> runBatch(
      String queue, List<LeasedMessage> batch, ExecutorService pool) {
    for (LeasedMessage m : batch) {
      if (registrations.apply(queue, m.type()) == null) {
        engine.release(batch.stream().map(LeasedMessage::token).toList());
        throw new IllegalStateException(
            "drain: no handler for type \""
                + m.type()
                + "\" on queue \""
                + queue
                + "\" (message "
                + m.id()
                + "); register one with TestRedrive.handle("
                + "\""
                + queue
                + "\", \""
                + m.type()
                + "\", handler)");
      }
    }
    List<DirectRun> ran = pool == null ? runHere(queue, batch) : runOn(pool, queue, batch);
    List<SettleCommand> commands = ran.stream().map(DirectRun::command).toList();
    List<Settlement> settled;
    try {
      settled = engine.settle(commands);
    } catch (RuntimeException e) {
      ran.forEach(r -> r.settleFailed(e));
      throw e;
    }
    List<DrainedMessage> out = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      ran.get(i).settled(settled.get(i));
      out.add(outcome(batch.get(i), commands.get(i), settled.get(i)));
    }
    return out;
  }

  private List<DirectRun> runHere(String queue, List<LeasedMessage> batch) {
    List<DirectRun> commands = new ArrayList<>();
    for (LeasedMessage m : batch) {
      commands.add(DirectRun.run(engine, m, registrations.apply(queue, m.type()), WORKER_ID));
    }
    return commands;
  }

  /** Runs each stream's messages in order on one thread, unrelated messages side by side. */
  private List<DirectRun> runOn(ExecutorService pool, String queue, List<LeasedMessage> batch) {
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      String stream = batch.get(i).stream();
      groups
          .computeIfAbsent(stream == null ? "#" + i : "s:" + stream, k -> new ArrayList<>())
          .add(i);
    }
    DirectRun[] commands = new DirectRun[batch.size()];
    List<Future<?>> running = new ArrayList<>();
    for (List<Integer> group : groups.values()) {
      running.add(
          pool.submit(
              () -> {
                for (int i : group) {
                  LeasedMessage m = batch.get(i);
                  commands[i] =
                      DirectRun.run(engine, m, registrations.apply(queue, m.type()), WORKER_ID);
                }
              }));
    }
    for (Future<?> f : running) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("drain: interrupted while handlers ran", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("drain: a classifier failed", e.getCause());
      }
    }
    return List.of(commands);
  }

  private static DrainedMessage outcome(LeasedMessage m, SettleCommand c, Settlement s) {
    SettleResult r = s.orThrow();
    if (c instanceof SettleCommand.Fail f) {
      boolean retry = r.state() == MessageState.READY || r.state() == MessageState.SCHEDULED;
      return new DrainedMessage(
          m.id(),
          m.type(),
          m.attempt(),
          r.state(),
          f.reason(),
          f.message(),
          retry ? r.visibleAt() : null);
    }
    return new DrainedMessage(m.id(), m.type(), m.attempt(), r.state(), null, null, null);
  }

  private DrainedMessage poisoned(String id) {
    Message m = engine.getMessage(id);
    return new DrainedMessage(
        id, m.type(), m.attempts(), MessageState.DEAD, m.deadReason(), null, null);
  }

  private Optional<Instant> nextRetry(String queue) {
    MessageQuery query =
        MessageQuery.all(queue).withStates(EnumSet.of(MessageState.SCHEDULED)).withLimit(1000);
    return engine.listMessages(query).messages().stream()
        .map(Message::visibleAt)
        .filter(t -> t != null)
        .min(Instant::compareTo);
  }
}
