package io.redrive.bench.scenario;

import io.redrive.bench.Check;
import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Payload;
import io.redrive.bench.contender.Target;
import io.redrive.failure.FailureReason;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 4: 10 % of messages fail twice then succeed, 5 % fail every time; deliveries per second
 * against scenario 2's no-op drain of the same size (one delivery per message there), messages per
 * second beside them, and a check that every message ended exactly once.
 */
public final class FailureScenario implements Scenario {
  static final int MAX_ATTEMPTS = 5;
  private final Sizes sizes;

  public FailureScenario(Sizes sizes) {
    this.sizes = sizes;
  }

  @Override
  public String name() {
    return "failure";
  }

  @Override
  public String title() {
    return "4. Failure path";
  }

  @Override
  public String about() {
    return sizes.failureCount()
        + " messages on a queue with "
        + MAX_ATTEMPTS
        + " attempts and no cooldown between them: 85 % complete at once, 10 % fail twice and"
        + " complete at attempt 3, 5 % fail every attempt and end DEAD after the fifth. Timed"
        + " until every message is completed or dead. The figure is deliveries (handler runs)"
        + " per second: a failing message is delivered again, 140 deliveries per 100 messages"
        + " here, so messages per second (in the details) cannot reach the healthy drain's."
        + " Baseline: scenario 2 (Redrive's no-op drain of the same backlog with the same"
        + " workers, one delivery per message), so the ratio is the cost of a delivery on the"
        + " failure path. Checked per run: each message completed exactly once or dead, never"
        + " both; flaky ones completed at attempt 3, the others at 1; each poison message ran"
        + " 5 times and is dead with attempts = 5; the dead count is the 5 % share.";
  }

  @Override
  public List<Cell> cells(Target target) {
    List<Cell> cells = new ArrayList<>();
    for (int batch : sizes.failureBatches()) {
      cells.add(new FailureCell(target, 4, batch, sizes.failureCount()));
    }
    return cells;
  }

  /** What message {@code i} does: every 20th is poison, every 10th (offset 5) is flaky. */
  static String kind(int i) {
    if (i % 20 == 0) {
      return "poison";
    }
    return i % 10 == 5 ? "flaky" : "ok";
  }

  private record FailureCell(Target target, int workers, int batch, int count) implements Cell {
    @Override
    public String params() {
      return "workers=" + workers + " batch=" + batch + " messages=" + count;
    }

    @Override
    public String oursLabel() {
      return "Worker, 10 % flaky + 5 % poison";
    }

    @Override
    public String baselineLabel() {
      return "Worker, no-op (scenario 2)";
    }

    @Override
    public String unit() {
      return "deliveries/s";
    }

    @Override
    public Measurement runBaseline() throws Exception {
      return DrainScenario.drainOurs(target, workers, batch, count);
    }

    @Override
    public Measurement runOurs() throws Exception {
      Map<String, String> kinds = new ConcurrentHashMap<>();
      Map<String, Integer> completions = new ConcurrentHashMap<>();
      Map<String, Integer> completedAt = new ConcurrentHashMap<>();
      Map<String, Integer> poisonRuns = new ConcurrentHashMap<>();
      long poison = 0;
      long expectedDeliveries = 0;
      for (int i = 0; i < count; i++) {
        String kind = kind(i);
        if (kind.equals("poison")) {
          poison++;
        }
        expectedDeliveries += kind.equals("poison") ? MAX_ATTEMPTS : kind.equals("flaky") ? 3 : 1;
      }
      long expectedCompleted = count - poison;
      AtomicLong completed = new AtomicLong();
      AtomicLong deliveries = new AtomicLong();
      Handler complete =
          ctx -> {
            completions.merge(ctx.id(), 1, Integer::sum);
            completedAt.put(ctx.id(), ctx.attempt());
            completed.incrementAndGet();
            return HandlerResult.complete();
          };
      Handler flaky =
          ctx ->
              ctx.attempt() <= 2
                  ? HandlerResult.fail(FailureReason.HANDLER_EXCEPTION, "flaky")
                  : complete.handle(ctx);
      Handler poisonHandler =
          ctx -> {
            poisonRuns.merge(ctx.id(), 1, Integer::sum);
            return HandlerResult.fail(FailureReason.HANDLER_EXCEPTION, "poison");
          };
      try (BenchDatabase db = target.newDatabase();
          Nodes nodes = Nodes.open(target, db, workers, 4)) {
        nodes.createQueue(QueuePolicy.defaults().withRetry(MAX_ATTEMPTS, Duration.ZERO));
        List<NewMessage> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          messages.add(NewMessage.builder(Nodes.QUEUE, kind(i)).payload(Payload.JSON).build());
        }
        for (int from = 0; from < count; from += 500) {
          List<NewMessage> chunk = messages.subList(from, Math.min(count, from + 500));
          var ids = nodes.engine(0).enqueueBatch(chunk);
          for (int j = 0; j < ids.size(); j++) {
            kinds.put(ids.get(j).id(), chunk.get(j).type());
          }
        }
        db.analyze(List.of("redrive_messages"));
        long expectedDead = poison;
        long start = System.nanoTime();
        nodes.startWorkers(
            batch,
            Map.of(
                "ok", counted(deliveries, complete),
                "flaky", counted(deliveries, flaky),
                "poison", counted(deliveries, poisonHandler)));
        Await.until(
            "all completed", () -> completed.get() >= expectedCompleted, Duration.ofMinutes(10), 1);
        Await.until(
            "only the dead left",
            () -> {
              QueueStats s = nodes.engine(0).stats(Nodes.QUEUE);
              return s.dead() >= expectedDead && s.total() == s.dead();
            },
            Duration.ofMinutes(2),
            5);
        long nanos = System.nanoTime() - start;
        nodes.stopWorkers();
        QueueStats end = nodes.engine(0).stats(Nodes.QUEUE);
        List<Check> checks =
            new ArrayList<>(
                check(kinds, completions, completedAt, poisonRuns, end, expectedCompleted, poison));
        checks.add(
            new Check(
                "deliveries",
                deliveries.get() == expectedDeliveries,
                "handler runs " + deliveries.get() + "/" + expectedDeliveries));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("msgs/s", (double) Math.round(Measurement.perSecond(count, nanos)));
        details.put("deliveries", (double) deliveries.get());
        details.put("completed", (double) completions.size());
        details.put("dead", (double) end.dead());
        return new Measurement(Measurement.perSecond(deliveries.get(), nanos), details, checks);
      }
    }

    private static Handler counted(AtomicLong deliveries, Handler handler) {
      return ctx -> {
        deliveries.incrementAndGet();
        return handler.handle(ctx);
      };
    }

    private static List<Check> check(
        Map<String, String> kinds,
        Map<String, Integer> completions,
        Map<String, Integer> completedAt,
        Map<String, Integer> poisonRuns,
        QueueStats end,
        long expectedCompleted,
        long expectedDead) {
      long twice = completions.values().stream().filter(n -> n != 1).count();
      long missing =
          kinds.entrySet().stream()
              .filter(e -> !e.getValue().equals("poison"))
              .filter(e -> !completions.containsKey(e.getKey()))
              .count();
      long poisonCompleted =
          completions.keySet().stream().filter(id -> "poison".equals(kinds.get(id))).count();
      long wrongAttempt =
          completedAt.entrySet().stream()
              .filter(e -> e.getValue() != ("flaky".equals(kinds.get(e.getKey())) ? 3 : 1))
              .count();
      long poisonWrongRuns =
          kinds.entrySet().stream()
              .filter(e -> e.getValue().equals("poison"))
              .filter(e -> poisonRuns.getOrDefault(e.getKey(), 0) != MAX_ATTEMPTS)
              .count();
      Map<Integer, Long> histogram = end.attemptsHistogram();
      boolean deadShape =
          end.dead() == expectedDead
              && end.total() == expectedDead
              && histogram.getOrDefault(MAX_ATTEMPTS, 0L) == expectedDead
              && histogram.values().stream().mapToLong(Long::longValue).sum() == expectedDead;
      return List.of(
          new Check(
              "exactly once: completed",
              twice == 0
                  && missing == 0
                  && poisonCompleted == 0
                  && completions.size() == expectedCompleted,
              "completed "
                  + completions.size()
                  + "/"
                  + expectedCompleted
                  + ", more than once "
                  + twice
                  + ", never "
                  + missing
                  + ", poison completed "
                  + poisonCompleted),
          new Check(
              "attempt counts",
              wrongAttempt == 0 && poisonWrongRuns == 0,
              "completions at the wrong attempt "
                  + wrongAttempt
                  + ", poison not run exactly "
                  + MAX_ATTEMPTS
                  + " times "
                  + poisonWrongRuns),
          new Check(
              "exactly once: dead",
              deadShape,
              "dead "
                  + end.dead()
                  + "/"
                  + expectedDead
                  + ", left "
                  + end.total()
                  + ", attempts "
                  + histogram));
    }
  }
}
