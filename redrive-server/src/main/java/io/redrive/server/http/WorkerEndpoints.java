package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;

import io.redrive.Redrive;
import io.redrive.lease.LeaseHolder;
import io.redrive.server.auth.Permission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workers the store sees ({@code GET /v1/workers}, docs/api.md): each worker holding leases
 * now, with what it holds per queue and type. A key limited to some queues sees only those queues'
 * leases.
 */
final class WorkerEndpoints {
  private final Redrive redrive;

  WorkerEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  List<Route> routes() {
    return List.of(
        Route.of(
                GET,
                "/v1/workers",
                "Workers holding leases now, per queue and type",
                Permission.VIEW,
                null,
                200,
                Workers.class,
                this::list)
            .withQueryParams("queue"));
  }

  private void list(Exchange ex) {
    String queue = ex.query("queue");
    if (queue != null) {
      ex.authorizeQueue(queue);
    }
    Map<String, List<LeaseHolder>> byWorker = new LinkedHashMap<>();
    for (LeaseHolder h : redrive.leaseHolders(queue)) {
      if (ex.inScope(h.queue())) {
        byWorker.computeIfAbsent(h.worker(), w -> new ArrayList<>()).add(h);
      }
    }
    List<Worker> workers = new ArrayList<>();
    for (Map.Entry<String, List<LeaseHolder>> e : byWorker.entrySet()) {
      long held = 0;
      long expired = 0;
      Instant last = null;
      List<WorkerLeases> leases = new ArrayList<>();
      for (LeaseHolder h : e.getValue()) {
        held += h.held();
        expired += h.expired();
        last = last == null || h.lastLeasedAt().isAfter(last) ? h.lastLeasedAt() : last;
        leases.add(
            new WorkerLeases(
                h.queue(), h.type(), h.held(), h.expired(), h.firstLeasedAt(), h.lastLeasedAt()));
      }
      workers.add(new Worker(e.getKey(), held, expired, last, leases));
    }
    ex.reply(new Workers(workers));
  }

  /** {@code GET /v1/workers}: the workers holding leases now, by name. */
  record Workers(List<Worker> workers) {}

  /** One worker holding leases: totals over its queues, and what it holds in each. */
  record Worker(
      String worker,
      long held,
      @ApiField(description = "of those, past their lease deadline and not yet given back")
          long expired,
      Instant lastLeasedAt,
      List<WorkerLeases> leases) {}

  /** What one worker holds of one type in one queue. */
  record WorkerLeases(
      String queue,
      String type,
      long held,
      long expired,
      Instant firstLeasedAt,
      Instant lastLeasedAt) {}
}
