package io.redrive.workflow.runtime;

import io.redrive.store.workflow.TurnRow;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ActivityCompleted;
import io.redrive.workflow.history.Event.ActivityFailed;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.InboxMessage;
import io.redrive.workflow.history.InboxMessage.Checkpoint;
import io.redrive.workflow.history.InboxMessage.LocalCrash;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which local activities of an execution still wait for a result, and which crashes count against
 * them (docs/workflows.md, "Local and queued activities"). A crash is a turn lease that ran out
 * while local activities were pending: it is charged to the one a crashed turn was retrying (the
 * first pending one with crashes), else to the first pending one, never to the turn. Pure and
 * stateless.
 */
final class LocalRuns {
  /** The dedupe key of an instance's one CHECKPOINT row. */
  static final String CHECKPOINT_KEY = "checkpoint";

  private LocalRuns() {}

  /**
   * The local activities {@code events} (one execution's, in order) scheduled and hold no result
   * for, by sequence number, each with its crashes from {@code crashes} (by {@link LocalRun#key}).
   * None once the execution continued as new.
   */
  static List<LocalRun> pending(List<HistoryEvent> events, Map<String, List<LocalCrash>> crashes) {
    Map<Long, ActivityScheduled> latest = new TreeMap<>();
    Set<String> ended = new HashSet<>();
    for (HistoryEvent h : events) {
      Event e = h.event();
      if (e instanceof ActivityScheduled a) {
        ActivityScheduled before = latest.get(a.seq());
        if (before == null || a.retryNumber() >= before.retryNumber()) {
          latest.put(a.seq(), a);
        }
      } else if (e instanceof ActivityCompleted c) {
        ended.add(LocalRun.key(c.seq(), c.retryNumber()));
      } else if (e instanceof ActivityFailed f) {
        ended.add(LocalRun.key(f.seq(), f.retryNumber()));
      } else if (e instanceof Event.ContinuedAsNew) {
        return List.of();
      }
    }
    List<LocalRun> out = new ArrayList<>();
    for (ActivityScheduled a : latest.values()) {
      String key = LocalRun.key(a.seq(), a.retryNumber());
      if (a.local() && !ended.contains(key)) {
        out.add(
            new LocalRun(
                a.seq(),
                a.name(),
                a.retryNumber(),
                a.input(),
                a.timeoutMs(),
                crashes.getOrDefault(key, List.of())));
      }
    }
    return out;
  }

  /** The turn rows since the last commit that are crashes: leases that ran out. */
  static List<TurnRow> crashes(List<TurnRow> turns) {
    List<TurnRow> out = new ArrayList<>();
    for (TurnRow t : turns) {
      if ("LEASE_EXPIRED".equals(t.outcome())) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * The crashes charged to {@code pending}: those the batch's CHECKPOINT row carries, plus each new
   * crash in {@code turns}, charged to the first pending activity that already has crashes (it ran
   * alone), else to the first pending one.
   */
  static Map<String, List<LocalCrash>> charged(
      List<LocalRun> pending, List<InboxMessage> batch, List<TurnRow> turns) {
    Map<String, List<LocalCrash>> out = new LinkedHashMap<>();
    Set<String> keys = new HashSet<>();
    pending.forEach(r -> keys.add(r.key()));
    for (InboxMessage m : batch) {
      if (m instanceof Checkpoint c) {
        for (LocalCrash x : c.crashes()) {
          String key = LocalRun.key(x.seq(), x.retryNumber());
          if (keys.contains(key)) {
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(x);
          }
        }
      }
    }
    if (pending.isEmpty()) {
      return out;
    }
    LocalRun target = pending.get(0);
    for (LocalRun r : pending) {
      if (out.containsKey(r.key())) {
        target = r;
        break;
      }
    }
    for (TurnRow t : crashes(turns)) {
      out.computeIfAbsent(target.key(), k -> new ArrayList<>())
          .add(
              new LocalCrash(
                  target.seq(), target.retryNumber(), t.node(), t.leasedAt(), t.endedAt()));
    }
    return out;
  }

  /** Every crash charged to {@code runs}, for the CHECKPOINT row that carries them on. */
  static List<LocalCrash> carried(List<LocalRun> runs) {
    List<LocalCrash> out = new ArrayList<>();
    runs.forEach(r -> out.addAll(r.crashes()));
    return out;
  }

  /**
   * The runs one checkpoint runs: all of them, or after a crash only the first that has crashes, so
   * each further crash is charged to the one activity that ran.
   */
  static List<LocalRun> toRun(List<LocalRun> runs) {
    for (LocalRun r : runs) {
      if (!r.crashes().isEmpty()) {
        return List.of(r);
      }
    }
    return runs;
  }

  static Map<String, List<LocalCrash>> none() {
    return new HashMap<>();
  }
}
