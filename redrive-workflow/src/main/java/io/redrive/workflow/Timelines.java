package io.redrive.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.store.workflow.ActivityLinkRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.TurnRow;
import io.redrive.workflow.history.Delivery;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.HistoryUnreadableException;
import io.redrive.workflow.replay.Payloads;
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

  static List<TimelineEntry> of(
      List<HistoryRow> history, List<TurnRow> turns, List<Running> running, Payloads payloads) {
    List<TimelineEntry> out = new ArrayList<>();
    for (Running r : running) {
      live(r, out);
    }
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
        deliveries(e, attemptsOf(e, payloads), out);
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

  /** The attempt story an activity's result event carries, or null when it cannot be read. */
  private static JsonNode attemptsOf(HistoryRow row, Payloads payloads) {
    try {
      Event e = HistoryEvent.parse(row, payloads.mapper()).event();
      if (e instanceof Event.ActivityCompleted c) {
        return c.attempts();
      }
      if (e instanceof Event.ActivityFailed f) {
        return f.attempts();
      }
    } catch (HistoryUnreadableException unreadable) {
      // the timeline shows the event alone
    }
    return null;
  }

  private static void deliveries(HistoryRow e, JsonNode attempts, List<TimelineEntry> out) {
    for (Delivery d : Delivery.of(attempts)) {
      out.add(
          new TimelineEntry(
              d.at() == null ? e.at() : d.at(),
              TimelineEntry.Kind.ACTIVITY_ATTEMPT,
              e.executionId(),
              null,
              null,
              e.name(),
              e.seq(),
              d.attempt(),
              d.worker(),
              null,
              d.outcome(),
              d.reason(),
              d.error()));
    }
  }

  /** An activity still running: its link and its message as it is now (null once gone). */
  record Running(ActivityLinkRow link, Message message) {}

  /**
   * The deliveries of an activity still running, from its message: the ended ones in its history,
   * and the one a worker holds now ({@code IN_PROGRESS}).
   */
  private static void live(Running r, List<TimelineEntry> out) {
    if (r.message() == null) {
      return;
    }
    for (HistoryEntry h : r.message().history()) {
      if (h.outcome() == Outcome.LEASED) {
        continue; // the delivery running now is added below, from the message's state
      }
      out.add(
          new TimelineEntry(
              h.settledAt() != null ? h.settledAt() : h.leasedAt(),
              TimelineEntry.Kind.ACTIVITY_ATTEMPT,
              r.link().executionId(),
              null,
              null,
              r.link().name(),
              r.link().seq(),
              h.attempt(),
              h.worker(),
              null,
              h.outcome().name(),
              h.failure() == null ? null : h.failure().reason().name(),
              h.failure() == null ? h.note() : h.failure().message(),
              r.link().messageId()));
    }
    Message m = r.message();
    if (m.state() == MessageState.LEASED) {
      out.add(
          new TimelineEntry(
              null,
              TimelineEntry.Kind.ACTIVITY_ATTEMPT,
              r.link().executionId(),
              null,
              null,
              r.link().name(),
              r.link().seq(),
              m.attempts(),
              m.leasedBy(),
              null,
              "IN_PROGRESS",
              null,
              "leased until " + m.visibleAt(),
              r.link().messageId()));
    }
  }
}
