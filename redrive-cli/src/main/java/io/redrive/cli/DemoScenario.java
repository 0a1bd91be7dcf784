package io.redrive.cli;

import io.redrive.Redrive;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's story: four messages, one simulated worker, and the engine deciding every outcome. The
 * "crash" is real from the engine's point of view: the worker takes the lease and never settles it,
 * exactly as a killed process would.
 */
final class DemoScenario {
  private static final String QUEUE = "demo.orders";
  private static final String DLQ = "demo.orders.dlq";
  private static final String WORKER = "demo-worker-1";

  private final Redrive redrive;
  private final PrintStream out;
  private final Map<String, String> labels = new LinkedHashMap<>();

  DemoScenario(Redrive redrive, PrintStream out) {
    this.redrive = redrive;
    this.out = out;
  }

  boolean run(Duration limit) {
    resetQueues();
    enqueue("healthy", "send-email", "{\"to\":\"ada@example.com\"}");
    enqueue("flaky (fails twice, then succeeds)", "charge-card", "{\"order\":42}");
    enqueue("poison (crashes its worker every time)", "render-pdf", "{\"pages\":-1}");
    enqueue("invalid (validation failure, dead at once)", "ship-order", "{\"address\":null}");
    out.println();
    Instant deadline = Instant.now().plus(limit);
    while (!settled()) {
      if (Instant.now().isAfter(deadline)) {
        out.println("demo timed out after " + limit);
        return false;
      }
      work();
      pause();
    }
    report();
    return true;
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
            .withLeaseTimeout(Duration.ofMillis(700))
            .withDeadLetter(DeadLetter.moveTo(DLQ)));
    out.println(
        "queue " + QUEUE + ": 3 attempts, 300ms cooldown, 700ms lease, dead letters to " + DLQ);
  }

  private void enqueue(String label, String type, String payload) {
    String id = redrive.enqueue(NewMessage.builder(QUEUE, type).payload(payload).build()).id();
    labels.put(id, label);
    out.println("enqueued " + id + "  " + type + "  — " + label);
  }

  private void work() {
    var result = redrive.lease(LeaseRequest.of(QUEUE, WORKER, 10));
    for (String id : result.poisoned()) {
      out.println("  lease found " + id + " poisoned: dead-lettered without calling a handler");
    }
    for (LeasedMessage m : result.leased()) {
      handle(m);
    }
  }

  private void handle(LeasedMessage m) {
    String prefix = "  attempt " + m.attempt() + "/" + m.maxAttempts() + " of " + m.type() + ": ";
    switch (m.type()) {
      case "send-email" -> {
        redrive.complete(m.token());
        out.println(prefix + "completed");
      }
      case "charge-card" -> {
        if (m.attempt() < 3) {
          redrive.fail(
              FailRequest.of(
                  m.token(), FailureReason.DEPENDENCY_FAILURE, "payment gateway timed out"));
          out.println(prefix + "failed (dependency failure), will retry");
        } else {
          redrive.complete(m.token());
          out.println(prefix + "completed");
        }
      }
      case "render-pdf" -> out.println(prefix + "worker crashed (lease left to expire)");
      case "ship-order" -> {
        redrive.fail(
            FailRequest.of(m.token(), FailureReason.VALIDATION_FAILURE, "address is required"));
        out.println(prefix + "failed validation: not retryable");
      }
      default -> throw new IllegalStateException("no handler for " + m.type());
    }
  }

  private boolean settled() {
    QueueStats stats = redrive.stats(QUEUE);
    return stats.total() == 0;
  }

  private void report() {
    out.println();
    out.println("Final state of every message:");
    List<Message> dead = new ArrayList<>(redrive.listMessages(MessageQuery.all(DLQ)).messages());
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
    if (h.note() != null) {
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
