package io.redrive.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.store.HistoryRow;
import io.redrive.store.TurnRow;
import io.redrive.workflow.replay.EventKind;
import io.redrive.workflow.replay.Payloads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Builds an instance's timeline from its history, its uncommitted turn tries and the deliveries
 * each activity result carries. Ordered by time; at the same instant a try or delivery goes before
 * the event it led to.
 */
final class Timelines {
  private Timelines() {}

  static List<TimelineEntry> of(List<HistoryRow> history, List<TurnRow> turns, Payloads payloads) {
    List<TimelineEntry> out = new ArrayList<>();
    for (TurnRow t : turns) {
      out.add(
          new TimelineEntry(
              t.endedAt(),
              TimelineEntry.Kind.TURN_ATTEMPT,
              t.executionId(),
              null,
              null,
              null,
              null,
              t.attempt(),
              t.node(),
              t.build(),
              t.outcome(),
              t.reason(),
              t.message()));
    }
    for (HistoryRow e : history) {
      boolean result =
          EventKind.ACTIVITY_COMPLETED.equals(e.kind())
              || EventKind.ACTIVITY_FAILED.equals(e.kind());
      if (result && e.data() != null) {
        deliveries(e, payloads.parse(e.data()), out);
      }
      out.add(
          new TimelineEntry(
              e.at(),
              TimelineEntry.Kind.EVENT,
              e.executionId(),
              e.eventId(),
              e.kind(),
              e.name(),
              e.seq(),
              null,
              null,
              null,
              null,
              null,
              null));
    }
    // Stable: equal times keep insertion order, so a history stays in event order.
    out.sort(
        Comparator.comparing(TimelineEntry::at, Comparator.nullsLast(Comparator.naturalOrder())));
    return out;
  }

  private static void deliveries(HistoryRow e, JsonNode data, List<TimelineEntry> out) {
    for (JsonNode a : data.path("attempts")) {
      Instant at = instant(a.path("settledAt"));
      if (at == null) {
        at = instant(a.path("leasedAt"));
      }
      out.add(
          new TimelineEntry(
              at == null ? e.at() : at,
              TimelineEntry.Kind.ACTIVITY_ATTEMPT,
              e.executionId(),
              null,
              null,
              e.name(),
              e.seq(),
              a.path("attempt").isNumber() ? a.path("attempt").asInt() : null,
              text(a.path("worker")),
              null,
              text(a.path("outcome")),
              text(a.path("reason")),
              text(a.path("error"))));
    }
  }

  private static Instant instant(JsonNode n) {
    return n.isTextual() ? Instant.parse(n.asText()) : null;
  }

  private static String text(JsonNode n) {
    return n.isTextual() ? n.asText() : null;
  }
}
