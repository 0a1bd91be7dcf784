package io.redrive.cli;

import io.redrive.Redrive;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerContext;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's story: five messages, two real workers, and the engine deciding every outcome. The
 * "crashing" handler hangs without ever settling, which is what the queue sees when a worker is
 * killed: its lease runs out and the next delivery counts.
 */
final class DemoScenario {
  private static final String QUEUE = "demo.orders";
  private static final String DLQ = "demo.orders.dlq";

  private final Redrive redrive;
  private final PrintStream out;
  private final Map<String, String> labels = new LinkedHashMap<>();
  private final Map<String, Integer> flakyRuns = new java.util.concurrent.ConcurrentHashMap<>();

  DemoScenario(Redrive redrive, PrintStream out) {
    this.redrive = redrive;
    this.out = out;
  }

  boolean run(Duration limit) {
    resetQueues();
    enqueue("healthy", "send-email", "{\"to\":\"ada@example.com\"}");
    enqueue("flaky (fails twice, then succeeds)", "charge-card", "{\"order\":42}");
    enqueue("crashing (its worker never comes back)", "render-pdf", "{\"pages\":-1}");
    enqueue("poison (throws every time)", "resize-image", "{\"width\":0}");
    enqueue("invalid (validation failure, dead at once)", "ship-order", "{\"address\":null}");
    out.println();
    List<Worker> workers = List.of(worker("demo-worker-1"), worker("demo-worker-2"));
    try {
      Instant deadline = Instant.now().plus(limit);
      while (redrive.stats(QUEUE).total() > 0) {
        if (Instant.now().isAfter(deadline)) {
          out.println("demo timed out after " + limit);
          return false;
        }
        pause();
      }
    } finally {
      workers.forEach(w -> w.stop(Duration.ofSeconds(1)));
    }
    report();
    return true;
  }

  private Worker worker(String id) {
    return Worker.builder(redrive, QUEUE)
        .id(id)
        .concurrency(4)
        .maxRenewal(Duration.ofMillis(900))
        .pollInterval(Duration.ofMillis(20), Duration.ofMillis(200))
        .queueDepthInterval(Duration.ZERO)
        .handler("send-email", ctx -> done(ctx, "completed"))
        .handler("charge-card", this::chargeCard)
        .handler("render-pdf", this::crash)
        .handler("resize-image", this::poison)
        .handler(
            "ship-order",
            ctx -> {
              say(ctx, "failed validation: not retryable");
              return HandlerResult.deadNow(FailureReason.VALIDATION_FAILURE, "address is required");
            })
        .build()
        .start();
  }

  private HandlerResult chargeCard(HandlerContext ctx) {
    int run = flakyRuns.merge(ctx.id(), 1, Integer::sum);
    if (run < 3) {
      say(ctx, "payment gateway timed out, will retry");
      return HandlerResult.fail(FailureReason.DEPENDENCY_FAILURE, "payment gateway timed out");
    }
    return done(ctx, "completed");
  }

  private HandlerResult crash(HandlerContext ctx) {
    say(ctx, "worker crashed (no settle, no heartbeat: the lease will expire)");
    while (true) { // as good as dead: ignores interrupts, never settles
      Thread.onSpinWait();
      if (Thread.interrupted()) {
        return HandlerResult.complete(); // the worker is shutting down; the lease is long gone
      }
    }
  }

  private HandlerResult poison(HandlerContext ctx) {
    say(ctx, "threw IllegalStateException");
    throw new IllegalStateException("image has zero width");
  }

  private HandlerResult done(HandlerContext ctx, String what) {
    say(ctx, what);
    return HandlerResult.complete();
  }

  private void say(HandlerContext ctx, String what) {
    out.printf(
        "  %s  attempt %d/%d of %s: %s%n",
        ctx.workerId(), ctx.attempt(), ctx.maxAttempts(), ctx.type(), what);
  }

  private void resetQueues() {
    for (String q : List.of(QUEUE, DLQ)) {
      try {
        redrive.deleteQueue(q);
      } catch (QueueNotFoundException e) {
        // first run: nothing to reset
      }
    }
    redrive.createQueue(DLQ);
    redrive.createQueue(
        QUEUE,
        QueuePolicy.defaults()
            .withRetry(3, Duration.ofMillis(300))
            .withLeaseTimeout(Duration.ofMillis(600))
            .withDeadLetter(DeadLetter.moveTo(DLQ)));
    out.println(
        "queue " + QUEUE + ": 3 attempts, 300ms cooldown, 600ms lease, dead letters to " + DLQ);
  }

  private void enqueue(String label, String type, String payload) {
    String id = redrive.enqueue(NewMessage.builder(QUEUE, type).payload(payload).build()).id();
    labels.put(id, label);
    out.println("enqueued " + id + "  " + type + "  — " + label);
  }

  private void report() {
    out.println();
    out.println("Final state of every message:");
    List<Message> dead = redrive.listMessages(MessageQuery.all(DLQ)).messages();
    for (var e : labels.entrySet()) {
      Message copy =
          dead.stream().filter(d -> e.getKey().equals(d.sourceId())).findFirst().orElse(null);
      if (copy == null) {
        out.println("- " + e.getKey() + "  " + e.getValue() + ": COMPLETED (left the queue)");
        continue;
      }
      Message m = redrive.getMessage(copy.id());
      out.println(
          "- "
              + e.getKey()
              + "  "
              + e.getValue()
              + ": DEAD ("
              + m.deadReason()
              + ") in "
              + DLQ
              + " as "
              + m.id());
      for (HistoryEntry h : m.history()) {
        out.println("    " + line(h));
      }
    }
    out.println();
    out.println("Completed messages leave the queue at once; dead ones keep their whole story.");
  }

  private static String line(HistoryEntry h) {
    StringBuilder sb = new StringBuilder();
    sb.append("#").append(h.attempt()).append(' ').append(h.outcome());
    if (h.worker() != null) {
      sb.append(" by ").append(h.worker());
    }
    if (h.failure() != null) {
      sb.append(" — ").append(h.failure().reason()).append(": ").append(h.failure().message());
    }
    if (h.note() != null && h.failure() == null) {
      sb.append(" — ").append(h.note());
    }
    return sb.toString();
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("demo interrupted", e);
    }
  }
}
