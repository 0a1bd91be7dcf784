package io.redrive.workflow.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.failure.StackTraces;
import io.redrive.store.workflow.ActivityResult;
import io.redrive.store.workflow.ActivityResult.Outcome;
import io.redrive.trace.MessageTracing;
import io.redrive.trace.TraceScope;
import io.redrive.trace.TurnTrace;
import io.redrive.worker.FailureClassifier;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.history.InboxMessage.LocalCrash;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a turn's local activities in this process (docs/workflows.md, "Local and queued activities")
 * and reports each try as the {@link ActivityResult} a queued activity's message would have ended
 * with: the same poison rules at the start of a try ({@link DeliveryRules}, the crashes charged to
 * it counting as attempts), the same failure classification, the call's or the registration's
 * timeout (interrupted at it: TIMEOUT_EXCEEDED), an attempt story in the queue's shape. Entered by
 * turn threads; a fan-out runs on a pool of {@code activityConcurrency} threads shared by the
 * node's turns, a lone activity on the turn's own thread.
 */
final class LocalActivities {
  private final WorkflowRegistry registry;
  private final ObjectMapper mapper;
  private final RuntimeSettings settings;
  private final Clock clock;
  private final ThreadPoolExecutor pool;
  private final ScheduledExecutorService alarms;

  LocalActivities(
      WorkflowRegistry registry, ObjectMapper mapper, RuntimeSettings settings, Clock clock) {
    this.registry = registry;
    this.mapper = mapper;
    this.settings = settings;
    this.clock = clock;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            settings.activityConcurrency(),
            settings.activityConcurrency(),
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> daemon(r, "redrive-wf-local-" + settings.nodeId() + "-" + n.incrementAndGet()));
    this.pool.allowCoreThreadTimeOut(true);
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1, r -> daemon(r, "redrive-wf-local-timeouts-" + settings.nodeId()));
    timer.setRemoveOnCancelPolicy(true);
    this.alarms = timer;
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /**
   * Runs {@code runs} of the instance's execution; one result each, same order.
   *
   * @throws IllegalStateException when the turn's thread is interrupted meanwhile (its turn timed
   *     out or the node stops): the tries are cancelled and nothing is reported
   */
  List<ActivityResult> run(String instanceId, int executionId, List<LocalRun> runs) {
    return run(instanceId, executionId, runs, MessageTracing.NONE.turn(null));
  }

  /** As {@link #run(String, int, List)}, each try traced as a local activity of {@code turn}. */
  List<ActivityResult> run(
      String instanceId, int executionId, List<LocalRun> runs, TurnTrace turn) {
    if (runs.size() == 1) {
      return List.of(traced(turn, instanceId, executionId, runs.get(0)));
    }
    List<Future<ActivityResult>> futures = new ArrayList<>();
    for (LocalRun r : runs) {
      futures.add(pool.submit(() -> traced(turn, instanceId, executionId, r)));
    }
    List<ActivityResult> results = new ArrayList<>();
    try {
      for (Future<ActivityResult> f : futures) {
        results.add(f.get());
      }
      return results;
    } catch (InterruptedException e) {
      futures.forEach(f -> f.cancel(true));
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while local activities ran", e);
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      throw new IllegalStateException("a local activity's try failed to report", e.getCause());
    }
  }

  /** {@link #one} inside its own trace, a child of the turn's. */
  private ActivityResult traced(TurnTrace turn, String instanceId, int executionId, LocalRun r) {
    TurnTrace trace = turn.localActivity(r.name(), r.seq(), r.crashes().size() + 1);
    try (TraceScope scope = trace.activate()) {
      ActivityResult result = one(instanceId, executionId, r);
      if (result.outcome() != Outcome.COMPLETED) {
        FailureRecord f = result.failure();
        trace.failed(
            f != null ? f.reason().name() : result.outcome().name(),
            f != null ? f.message() : null);
      }
      return result;
    } finally {
      trace.end();
    }
  }

  /** One try, or its poison when the crashes charged to it used its attempts up. */
  private ActivityResult one(String instanceId, int executionId, LocalRun r) {
    int attempt = r.crashes().size() + 1;
    int max = settings.maxAttempts();
    String id = "local:" + instanceId + ":" + executionId + ":" + r.seq() + ":" + r.retryNumber();
    ArrayNode story = mapper.createArrayNode();
    LinkedHashSet<String> crashed = new LinkedHashSet<>();
    for (int i = 0; i < r.crashes().size(); i++) {
      LocalCrash c = r.crashes().get(i);
      // The queue's shape for an expired lease (reason and error), so a poison names it alike.
      entry(
              story,
              i + 1,
              "LEASE_EXPIRED",
              c.node(),
              c.leasedAt(),
              c.endedAt(),
              FailureReason.LEASE_EXPIRED.name(),
              "lease expired: node "
                  + c.node()
                  + " did not finish the local activity within its turn lease (crash, kill or"
                  + " hang)")
          .put("note", "the node died while the local activity ran");
      if (c.node() != null) {
        crashed.add(c.node());
      }
    }
    Instant leasedAt = now();
    List<String> workers = new ArrayList<>(crashed);
    boolean loop = DeliveryRules.isCrashLoop(workers, settings.maxCrashes());
    if (loop
        || DeliveryRules.onLease(r.crashes().size(), max, null, leasedAt)
            == DeliveryRules.LeaseVerdict.POISON) {
      return poisoned(id, r, attempt, max, story, loop ? workers : null, leasedAt);
    }
    ActivityRegistration registration = registry.activity(r.name()).orElseThrow();
    Object input;
    try {
      input =
          ActivityInvocation.input(
              mapper, registration, type -> mapper.treeToValue(r.input(), type));
    } catch (ActivityInvocation.UndecodableInput | IOException e) {
      return failed(
          id,
          attempt,
          max,
          story,
          leasedAt,
          FailureReason.SERIALIZATION_ERROR,
          false,
          e.getMessage(),
          null);
    }
    Duration timeout = timeout(r, registration);
    LocalActivityContext context =
        new LocalActivityContext(instanceId, executionId, r, attempt, max, settings.nodeId());
    ActivityInvocation.Ending ending =
        ActivityInvocation.within(alarms, timeout, () -> registration.code().run(context, input));
    Object output = ending.value();
    Throwable thrown = ending.thrown();
    if (ending.timedOut()) {
      String message = "local activity " + r.name() + " ran longer than its timeout of " + timeout;
      return failed(
          id, attempt, max, story, leasedAt, FailureReason.TIMEOUT_EXCEEDED, null, message, null);
    }
    if (thrown != null) {
      FailureClassifier classifier =
          registration.classifier() != null
              ? registration.classifier()
              : FailureClassifier.defaults();
      FailureReason reason = reportable(classifier.classify(thrown));
      String message =
          thrown.getClass().getName()
              + (thrown.getMessage() == null ? "" : ": " + thrown.getMessage());
      return failed(
          id,
          attempt,
          max,
          story,
          leasedAt,
          reason,
          null,
          message,
          StackTraces.bounded(thrown, StackTraces.DEFAULT_MAX_CHARS));
    }
    String result;
    try {
      result = mapper.writeValueAsString(output);
    } catch (JsonProcessingException e) {
      return failed(
          id,
          attempt,
          max,
          story,
          leasedAt,
          FailureReason.SERIALIZATION_ERROR,
          false,
          "activity " + r.name() + " result does not encode: " + e.getOriginalMessage(),
          null);
    }
    entry(story, attempt, "COMPLETED", settings.nodeId(), leasedAt, now(), null, null);
    return new ActivityResult(id, Outcome.COMPLETED, attempt, result, null, null, story.toString());
  }

  /** The longest any of {@code runs} may take. */
  Duration longest(List<LocalRun> runs) {
    Duration max = Duration.ZERO;
    for (LocalRun r : runs) {
      Duration t = registry.activity(r.name()).map(reg -> timeout(r, reg)).orElse(Duration.ZERO);
      max = t.compareTo(max) > 0 ? t : max;
    }
    return max;
  }

  /** The call's timeout, else the registration's, never past half of a turn's longest run. */
  private Duration timeout(LocalRun r, ActivityRegistration registration) {
    Duration cap = settings.maxTurnDuration().dividedBy(2);
    Duration t = r.timeoutMs() != null ? Duration.ofMillis(r.timeoutMs()) : registration.timeout();
    return t == null || t.compareTo(cap) > 0 ? cap : t;
  }

  private ActivityResult failed(
      String id,
      int attempt,
      int max,
      ArrayNode story,
      Instant leasedAt,
      FailureReason reason,
      Boolean retryable,
      String message,
      String stackTrace) {
    Instant at = now();
    boolean canRetry = retryable != null ? retryable : reason.retryableByDefault();
    entry(story, attempt, "FAILED", settings.nodeId(), leasedAt, at, reason.name(), message);
    FailureRecord failure =
        new FailureRecord(
            reason, message, canRetry, attempt, max, settings.nodeId(), at, stackTrace, null);
    return new ActivityResult(id, Outcome.FAILED, attempt, null, failure, null, story.toString());
  }

  /** Poisoned at the start of a try, as the queue poisons a message at its lease. */
  private ActivityResult poisoned(
      String id,
      LocalRun r,
      int attempt,
      int max,
      ArrayNode story,
      List<String> crashLoop,
      Instant at) {
    String text =
        crashLoop != null
            ? DeliveryRules.crashLoopText(id, r.name(), crashLoop, attempt, settings.maxCrashes())
            : DeliveryRules.poisonText(id, r.name(), attempt, max);
    entry(story, attempt, "POISONED", settings.nodeId(), at, at, "POISON", text);
    ObjectNode snapshot = mapper.createObjectNode();
    snapshot.put("id", id);
    snapshot.put("type", r.name());
    snapshot.put("attempts", attempt - 1);
    snapshot.set("history", story.deepCopy());
    if (crashLoop != null) {
      ArrayNode workers = snapshot.putArray("crashedWorkers");
      crashLoop.forEach(workers::add);
      snapshot.put("maxCrashes", settings.maxCrashes());
    }
    FailureRecord failure =
        new FailureRecord(
            FailureReason.POISON,
            text,
            false,
            attempt,
            max,
            settings.nodeId(),
            at,
            null,
            snapshot.toString());
    return new ActivityResult(id, Outcome.POISONED, attempt, null, failure, null, story.toString());
  }

  private static ObjectNode entry(
      ArrayNode story,
      int attempt,
      String outcome,
      String worker,
      Instant leasedAt,
      Instant settledAt,
      String reason,
      String error) {
    ObjectNode e = story.addObject();
    e.put("attempt", attempt);
    e.put("outcome", outcome);
    e.put("worker", worker);
    e.put("leasedAt", leasedAt == null ? null : leasedAt.toString());
    e.put("settledAt", settledAt == null ? null : settledAt.toString());
    if (reason != null) {
      e.put("reason", reason);
      e.put("error", error);
    }
    return e;
  }

  /** Reasons only Redrive assigns become HANDLER_EXCEPTION when a classifier says them. */
  private static FailureReason reportable(FailureReason reason) {
    switch (reason) {
      case POISON:
      case EXPIRED:
      case LEASE_EXPIRED:
        return FailureReason.HANDLER_EXCEPTION;
      default:
        return reason;
    }
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }
}
