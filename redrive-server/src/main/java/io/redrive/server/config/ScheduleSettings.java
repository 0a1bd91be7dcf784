package io.redrive.server.config;

import io.redrive.schedule.CatchUp;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code [schedules.<name>]} tables into {@link Schedule}s (docs/configuration.md): a
 * {@code cron} (with {@code zone}) or an {@code every}, a message target ({@code queue}, {@code
 * type}, ..., {@code priority}, {@code limitKey}) or a workflow target ({@code workflow}, {@code
 * input}, {@code version}), {@code jitter}, {@code catchUp} and {@code paused}. Whether a message
 * target's queue exists is checked when the declarations are applied.
 */
final class ScheduleSettings {
  static final List<String> FIELDS =
      List.of(
          "cron",
          "zone",
          "every",
          "queue",
          "type",
          "payload",
          "headers",
          "stream",
          "expireAfter",
          "priority",
          "limitKey",
          "workflow",
          "input",
          "version",
          "jitter",
          "catchUp",
          "paused");

  private ScheduleSettings() {}

  /** The declared schedules in file order; {@code schedules} may be absent. */
  static List<Schedule> read(ConfigNode schedules) {
    List<Schedule> out = new ArrayList<>();
    if (!schedules.present()) {
      return out;
    }
    for (Map.Entry<String, ConfigNode> e : schedules.entries().entrySet()) {
      ConfigNode s = e.getValue();
      s.requireTable();
      s.allowOnly(FIELDS);
      try {
        out.add(
            Schedule.builder(e.getKey(), spec(s), target(s))
                .jitter(s.child("jitter").present() ? s.child("jitter").duration() : Duration.ZERO)
                .catchUp(
                    s.child("catchUp").present()
                        ? CatchUp.parse(s.child("catchUp").string())
                        : CatchUp.ONCE)
                .paused(s.child("paused").present() && s.child("paused").bool())
                .build());
      } catch (ConfigException ex) {
        throw ex; // names its setting already
      } catch (IllegalArgumentException ex) {
        throw s.errorAtField(ex);
      }
    }
    return out;
  }

  private static ScheduleSpec spec(ConfigNode s) {
    ConfigNode cron = s.child("cron");
    ConfigNode every = s.child("every");
    if (cron.present() == every.present()) {
      throw s.error("give either cron or every");
    }
    if (every.present()) {
      if (s.child("zone").present()) {
        throw s.child("zone").error("is only for cron");
      }
      return ScheduleSpec.every(every.duration());
    }
    return ScheduleSpec.cron(
        cron.string(), s.child("zone").present() ? s.child("zone").string() : null);
  }

  private static ScheduleTarget target(ConfigNode s) {
    ConfigNode workflow = s.child("workflow");
    ConfigNode queue = s.child("queue");
    if (workflow.present() == queue.present()) {
      throw s.error("give either queue (and type) for a message or workflow for a workflow start");
    }
    if (workflow.present()) {
      for (String field :
          List.of("type", "payload", "headers", "stream", "expireAfter", "priority", "limitKey")) {
        if (s.child(field).present()) {
          throw s.child(field).error("is only for a message target (queue)");
        }
      }
      return new ScheduleTarget.Workflow(
          workflow.string(),
          s.child("input").present() ? s.child("input").string() : null,
          s.child("version").present() ? s.child("version").string() : null);
    }
    for (String field : List.of("input", "version")) {
      if (s.child(field).present()) {
        throw s.child(field).error("is only for a workflow target");
      }
    }
    ConfigNode type = s.child("type");
    if (!type.present()) {
      throw type.error("is required for a message target");
    }
    Map<String, String> headers = new LinkedHashMap<>();
    ConfigNode h = s.child("headers");
    if (h.present()) {
      h.entries().forEach((k, v) -> headers.put(k, v.string()));
    }
    return new ScheduleTarget.Message(
        queue.string(),
        type.string(),
        s.child("payload").present() ? s.child("payload").string() : "",
        headers,
        s.child("stream").present() ? s.child("stream").string() : null,
        s.child("expireAfter").present() ? s.child("expireAfter").duration() : null,
        s.child("priority").present() ? s.child("priority").integer(0, 9) : null,
        s.child("limitKey").present() ? s.child("limitKey").string() : null);
  }

  /**
   * The names of the declared schedules whose table says {@code paused} (true or false): at each
   * start their pause is as declared; the others keep the stored one (an operator's pause).
   */
  static Set<String> pauseDeclared(ConfigNode schedules) {
    Set<String> out = new LinkedHashSet<>();
    if (schedules.present()) {
      schedules
          .entries()
          .forEach(
              (name, s) -> {
                if (s.child("paused").present()) {
                  out.add(name);
                }
              });
    }
    return out;
  }
}
