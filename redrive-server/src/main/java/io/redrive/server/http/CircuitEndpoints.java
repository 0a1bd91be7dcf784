package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.queue.CircuitState;
import io.redrive.queue.CircuitStatus;
import io.redrive.server.auth.Permission;
import java.time.Instant;
import java.util.List;

/**
 * The circuit breakers of a queue's dependencies: list them (state, counters, history), and open or
 * close one by hand (docs/engine.md, "Circuit breakers").
 */
final class CircuitEndpoints {
  private final Redrive redrive;

  CircuitEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  /** {@code GET /v1/queues/{name}/circuits}. */
  record CircuitList(String queue, List<Circuit> circuits) {}

  /** One circuit as it stands now, with its last changes (newest first). */
  record Circuit(
      String dependency,
      @ApiField(values = {"CLOSED", "OPEN", "HALF_OPEN"}) CircuitState state,
      int failures,
      @ApiField(nullable = true) Instant openedAt,
      @ApiField(
              nullable = true,
              description =
                  "OPEN: when the next canary may go (null: opened by hand, no probes);"
                      + " HALF_OPEN: when the current wave ends")
          Instant nextProbeAt,
      @ApiField(description = "HALF_OPEN: the current wave, 1-based; 0 otherwise") int wave,
      List<String> types,
      @ApiField(description = "messages waiting that need it, while it holds; 0 when closed")
          long held,
      @ApiField(nullable = true) Instant changedAt,
      @ApiField(values = {"engine", "operator"}) String changedBy,
      List<Change> history) {}

  /** A change of a circuit's state. */
  record Change(
      Instant at,
      @ApiField(values = {"CLOSED", "OPEN", "HALF_OPEN"}) CircuitState state,
      @ApiField(values = {"engine", "operator"}) String by) {}

  List<Route> routes() {
    return List.of(
        Route.of(
            GET,
            "/v1/queues/{name}/circuits",
            "The circuit breakers of a queue's dependencies: state, counters, history",
            Permission.VIEW,
            null,
            200,
            CircuitList.class,
            ex -> {
              String queue = ex.path("name");
              ex.reply(
                  new CircuitList(
                      queue,
                      redrive.circuits(queue).stream().map(CircuitEndpoints::view).toList()));
            }),
        Route.of(
            POST,
            "/v1/queues/{name}/circuits/{dependency}/open",
            "Open a dependency's circuit by hand: its messages are held, without probes, until"
                + " closed by hand",
            Permission.ADMIN,
            null,
            200,
            Circuit.class,
            ex -> ex.reply(view(redrive.setCircuit(ex.path("name"), ex.path("dependency"), true)))),
        Route.of(
            POST,
            "/v1/queues/{name}/circuits/{dependency}/close",
            "Close a dependency's circuit by hand: its messages flow again",
            Permission.ADMIN,
            null,
            200,
            Circuit.class,
            ex ->
                ex.reply(view(redrive.setCircuit(ex.path("name"), ex.path("dependency"), false)))));
  }

  static Circuit view(CircuitStatus c) {
    return new Circuit(
        c.dependency(),
        c.state(),
        c.failures(),
        c.openedAt(),
        c.nextProbeAt(),
        c.wave(),
        c.types(),
        c.held(),
        c.changedAt(),
        c.changedBy(),
        c.history().stream().map(h -> new Change(h.at(), h.state(), h.by())).toList());
  }
}
