package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;

import io.redrive.Redrive;
import io.redrive.lease.QueueWorkers;
import io.redrive.lease.WaitingType;
import io.redrive.server.auth.Permission;
import java.time.Instant;
import java.util.List;

/**
 * A queue's live workers and unserved types ({@code GET /v1/queues/{name}/workers}, docs/api.md,
 * "Live workers and unserved types"): the workers whose lease calls were recorded lately with the
 * types they named, and the ready types no live worker takes. Read from the store, so every node
 * answers the same.
 */
final class QueueWorkerEndpoints {
  private final Redrive redrive;

  QueueWorkerEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  List<Route> routes() {
    return List.of(
        Route.of(
            GET,
            "/v1/queues/{name}/workers",
            "Live workers of a queue, the types they take, and its unserved types",
            Permission.VIEW,
            null,
            200,
            QueueWorkersView.class,
            this::ofQueue));
  }

  private void ofQueue(Exchange ex) {
    ex.reply(view(redrive.queueWorkers(ex.path("name"))));
  }

  static QueueWorkersView view(QueueWorkers w) {
    return new QueueWorkersView(
        w.queue(),
        w.liveWithin().toString(),
        w.workers().stream()
            .map(l -> new LiveWorkerView(l.worker(), List.copyOf(l.types()), l.lastLeaseAt()))
            .toList(),
        w.unserved().stream().map(QueueWorkerEndpoints::unserved).toList());
  }

  static UnservedTypeView unserved(WaitingType t) {
    return new UnservedTypeView(t.queue(), t.type(), t.readySince());
  }

  /** {@code GET /v1/queues/{name}/workers}. */
  record QueueWorkersView(
      String queue,
      @ApiField(description = "how recent a lease call makes a worker live (ISO-8601 duration)")
          String liveWithin,
      List<LiveWorkerView> workers,
      @ApiField(description = "ready types no live worker has taken for longer than liveWithin")
          List<UnservedTypeView> unserved) {}

  /** One live worker; {@code types} is empty when its leases take every type. */
  record LiveWorkerView(
      String worker,
      @ApiField(description = "the types its leases name; empty: every type") List<String> types,
      Instant lastLeaseAt) {}

  /** A type with ready messages that no live worker takes. */
  record UnservedTypeView(
      String queue,
      String type,
      @ApiField(description = "when its oldest ready message became ready") Instant readySince) {}

  /**
   * {@code /ready} when the store answers: ready, with the unserved types this node's maintenance
   * last raised, for information only (they are about workers, not this server, so the server stays
   * ready).
   */
  record ReadyView(
      @ApiField(values = {"ready"}) String status,
      @ApiField(description = "types no live worker takes (docs/engine.md); never makes it unready")
          List<UnservedTypeView> unservedTypes) {}
}
