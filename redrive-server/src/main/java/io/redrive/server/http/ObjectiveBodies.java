package io.redrive.server.http;

import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveStatus;
import io.redrive.time.DurationText;
import java.time.Instant;
import java.util.List;

/**
 * The request and response bodies of {@code /v1/objectives} (docs/api.md, "Objectives"): an
 * objective as its TOML table names its fields, and how it stands now.
 */
final class ObjectiveBodies {
  private ObjectiveBodies() {}

  /** {@code PUT /v1/objectives/{objective}}: create or replace. */
  record ObjectiveBody(
      @ApiField(pattern = RequestBodies.QUEUE_NAME, maxLength = 200) String queue,
      @ApiField(description = "only messages of this type (absent: every type)") String type,
      @ApiField(description = "only messages of this stream (absent: every stream)") String stream,
      @ApiField(
              description =
                  "latency (share of first leases within bound) or age (share of minutes whose oldest ready message is younger than bound)")
          String kind,
      @ApiField(description = "the share that must be good, between 0 and 1 exclusive (0.95)")
          Double target,
      @ApiField(format = "duration", description = "at least 1s") String bound,
      @ApiField(format = "duration", description = "whole minutes from 1h to 28d (default 28d)")
          String window) {

    Objective objective(String name) {
      if (queue == null) {
        throw new IllegalArgumentException("queue: required");
      }
      if (kind == null) {
        throw new IllegalArgumentException("kind: required (latency or age)");
      }
      if (target == null) {
        throw new IllegalArgumentException("target: required (a share such as 0.95)");
      }
      return new Objective(
          name,
          queue,
          type,
          stream,
          Objective.kind(kind),
          target,
          RequestBodies.duration("bound", bound),
          window == null ? Objective.MAX_WINDOW : RequestBodies.duration("window", window));
    }
  }

  /** An objective and how it stands (see {@link ObjectiveStatus}). */
  record ObjectiveView(
      String name,
      String queue,
      @ApiField(nullable = true) String type,
      @ApiField(nullable = true) String stream,
      String kind,
      double target,
      String bound,
      String window,
      Instant at,
      long within,
      long beyond,
      @ApiField(
              nullable = true,
              description = "within / (within + beyond) over the window; null: nothing measured")
          Double compliance,
      boolean breached,
      @ApiField(description = "bad share over the last 5 minutes / error budget")
          double burnRateShort,
      @ApiField(description = "bad share over the last hour / error budget") double burnRateLong,
      @ApiField(description = "1 untouched, 0 spent, below 0 overspent") double budgetRemaining,
      @ApiField(
              nullable = true,
              description =
                  "seconds until the budget is spent at the short burn rate; null: nothing burns")
          Long exhaustionSeconds) {

    static ObjectiveView of(ObjectiveStatus s) {
      Objective o = s.objective();
      return new ObjectiveView(
          o.name(),
          o.queue(),
          o.type(),
          o.stream(),
          o.kind().name(),
          o.target(),
          DurationText.format(o.bound()),
          DurationText.format(o.window()),
          s.at(),
          s.within(),
          s.beyond(),
          s.compliance(),
          s.breached(),
          s.burnRateShort(),
          s.burnRateLong(),
          s.budgetRemaining(),
          s.exhaustion() == null ? null : s.exhaustion().toSeconds());
    }
  }

  /** {@code GET /v1/objectives}. */
  record ObjectiveList(List<ObjectiveView> objectives) {}
}
