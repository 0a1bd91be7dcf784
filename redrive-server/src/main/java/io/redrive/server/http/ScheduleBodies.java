package io.redrive.server.http;

import io.redrive.schedule.CatchUp;
import io.redrive.schedule.Firing;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The request and response bodies of {@code /v1/schedules} (docs/api.md, "Schedules"): a schedule
 * as its TOML table names its fields, and where its firing stands.
 */
final class ScheduleBodies {
  private ScheduleBodies() {}

  /** {@code PUT /v1/schedules/{schedule}}: create or replace. */
  record ScheduleBody(
      @ApiField(description = "5 fields, or 6 with seconds first; give cron or every") String cron,
      @ApiField(description = "the time zone cron is read in (default UTC)") String zone,
      @ApiField(format = "duration", description = "a fixed interval, at least 1s") String every,
      @ApiField(pattern = RequestBodies.QUEUE_NAME, maxLength = 200) String queue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      @ApiField(format = "duration") String expireAfter,
      @ApiField(description = "an orchestration to start instead of a message") String workflow,
      @ApiField(description = "the orchestration's input, JSON text") String input,
      String version,
      @ApiField(format = "duration") String jitter,
      @ApiField(description = "once (default), skip or all:<N>") String catchUp,
      Boolean paused,
      @ApiField(min = 0, max = 9, description = "the message's; absent: the queue's default")
          Integer priority,
      @ApiField(maxLength = 200, description = "the key the queue's flow limits count it under")
          String limitKey) {

    Schedule schedule(String name) {
      if ((cron == null) == (every == null)) {
        throw new IllegalArgumentException("cron: give either cron or every");
      }
      ScheduleSpec spec =
          cron != null
              ? ScheduleSpec.cron(cron, zone)
              : ScheduleSpec.every(RequestBodies.duration("every", every));
      if ((queue == null) == (workflow == null)) {
        throw new IllegalArgumentException(
            "queue: give either queue (and type) for a message or workflow for a workflow start");
      }
      ScheduleTarget target =
          workflow != null
              ? new ScheduleTarget.Workflow(workflow, input, version)
              : new ScheduleTarget.Message(
                  queue,
                  type,
                  payload,
                  headers,
                  stream,
                  expireAfter == null ? null : RequestBodies.duration("expireAfter", expireAfter),
                  priority,
                  limitKey);
      return Schedule.builder(name, spec, target)
          .jitter(jitter == null ? Duration.ZERO : RequestBodies.duration("jitter", jitter))
          .catchUp(catchUp == null ? CatchUp.ONCE : CatchUp.parse(catchUp))
          .paused(paused != null && paused)
          .build();
    }
  }

  /** A schedule and where its firing stands. */
  record ScheduleView(
      String name,
      @ApiField(nullable = true) String cron,
      @ApiField(nullable = true) String zone,
      @ApiField(format = "duration", nullable = true) String every,
      @ApiField(nullable = true) String queue,
      @ApiField(nullable = true) String type,
      @ApiField(nullable = true, description = "the message's payload, as given") String payload,
      @ApiField(nullable = true) Map<String, String> headers,
      @ApiField(nullable = true) String stream,
      @ApiField(format = "duration", nullable = true) String expireAfter,
      @ApiField(nullable = true, description = "absent: the queue's default") Integer priority,
      @ApiField(nullable = true) String limitKey,
      @ApiField(nullable = true) String workflow,
      @ApiField(nullable = true, description = "the orchestration's input, as given") String input,
      @ApiField(nullable = true) String version,
      @ApiField(format = "duration") String jitter,
      String catchUp,
      boolean paused,
      @ApiField(nullable = true) Instant nextDueAt,
      @ApiField(nullable = true) Instant lastDueAt,
      @ApiField(nullable = true) Instant lastFiredAt,
      long skipped,
      Instant createdAt,
      Instant updatedAt) {

    static ScheduleView of(ScheduleInfo info) {
      Schedule s = info.schedule();
      ScheduleSpec.Cron cron = s.spec() instanceof ScheduleSpec.Cron c ? c : null;
      ScheduleSpec.Every every = s.spec() instanceof ScheduleSpec.Every e ? e : null;
      ScheduleTarget.Message m = s.target() instanceof ScheduleTarget.Message x ? x : null;
      ScheduleTarget.Workflow w = s.target() instanceof ScheduleTarget.Workflow x ? x : null;
      return new ScheduleView(
          s.name(),
          cron == null ? null : cron.expression(),
          cron == null ? null : cron.zone().getId(),
          every == null ? null : io.redrive.time.DurationText.format(every.interval()),
          m == null ? null : m.queue(),
          m == null ? null : m.type(),
          m == null ? null : m.payload(),
          m == null ? null : m.headers(),
          m == null ? null : m.stream(),
          m == null || m.expireAfter() == null
              ? null
              : io.redrive.time.DurationText.format(m.expireAfter()),
          m == null ? null : m.priority(),
          m == null ? null : m.limitKey(),
          w == null ? null : w.name(),
          w == null ? null : w.input(),
          w == null ? null : w.version(),
          io.redrive.time.DurationText.format(s.jitter()),
          s.catchUp().toString(),
          s.paused(),
          info.nextDueAt(),
          info.lastDueAt(),
          info.lastFiredAt(),
          info.skipped(),
          info.createdAt(),
          info.updatedAt());
    }
  }

  /** {@code GET /v1/schedules}. */
  record ScheduleList(List<ScheduleView> schedules) {}

  /** What a trigger produced. */
  record FiringView(String schedule, Instant dueAt, String producedId, boolean created) {
    static FiringView of(Firing f) {
      return new FiringView(f.schedule(), f.dueAt(), f.producedId(), f.created());
    }
  }
}
