package io.redrive.workflow.replay;

import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.Event.ChildScheduled;
import io.redrive.workflow.history.Event.Command;
import io.redrive.workflow.history.Event.PatchApplied;
import io.redrive.workflow.history.Event.TimerCreated;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.TimerPurpose;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The commands of a run: the ones history recorded, by command number, and the matching of what the
 * code issues against them (docs/workflows.md, "Nondeterminism detection" (a) and (b)). Also
 * remembers which retries of a command history already holds, so a retry is written once. One run,
 * one thread.
 */
final class CommandLog {
  private final OrchestrationRun.Spec spec;
  private final Map<Long, HistoryEvent> recorded = new HashMap<>();
  private final Set<String> retries = new HashSet<>();
  private long nextSeq;

  CommandLog(OrchestrationRun.Spec spec) {
    this.spec = spec;
    this.nextSeq = spec.firstSeq();
    for (HistoryEvent e : spec.events()) {
      Event event = e.event();
      if (event instanceof ActivityScheduled a) {
        retries.add(retryKey(EventKind.ACTIVITY_SCHEDULED, a.seq(), a.retryNumber()));
        if (a.retryNumber() == 0) {
          recorded.putIfAbsent(a.seq(), e);
        }
      } else if (event instanceof TimerCreated t) {
        if (t.purpose() == TimerPurpose.RETRY) {
          int retry = t.retryNumber() == null ? 0 : t.retryNumber();
          retries.add(retryKey(EventKind.TIMER_CREATED, t.seq(), retry));
        } else {
          recorded.putIfAbsent(t.seq(), e);
        }
      } else if (event instanceof ChildScheduled c) {
        retries.add(retryKey(EventKind.CHILD_SCHEDULED, c.seq(), c.retryNumber()));
        if (c.retryNumber() == 0) {
          recorded.putIfAbsent(c.seq(), e);
        }
      } else if (event instanceof PatchApplied p) {
        recorded.putIfAbsent(p.seq(), e);
      }
    }
  }

  /** The number the next command gets. */
  long nextSeq() {
    return nextSeq;
  }

  /** True when history has a command of number {@code seq}. */
  boolean has(long seq) {
    return recorded.containsKey(seq);
  }

  /** True when {@code seq} is new: this turn writes its command. */
  boolean isNew(long seq) {
    return !recorded.containsKey(seq);
  }

  /** History's command of number {@code seq}, or null. */
  Command recorded(long seq) {
    HistoryEvent e = recorded.get(seq);
    return e == null ? null : (Command) e.event();
  }

  /**
   * Takes the next command number for a command of {@code kind} named {@code label}, and checks it
   * against history's command of that number (check (a)).
   */
  long issue(RunState state, String kind, String label) {
    long seq = nextSeq++;
    HistoryEvent e = recorded.get(seq);
    if (e != null) {
      Command c = (Command) e.event();
      if (!c.kind().equals(kind) || !c.label().equals(label)) {
        String expected = c.kind() + " " + c.label();
        String actual = kind + " " + label;
        throw state.mismatch(
            prefix(seq) + "history has " + expected + ", code issued " + actual,
            new Mismatch(e.eventId(), seq, expected, actual));
      }
    }
    return seq;
  }

  /** Skips the next number when history has {@code changeId}'s patch marker there. */
  boolean skipPatch(String changeId) {
    Command c = recorded(nextSeq);
    if (c instanceof PatchApplied p && p.changeId().equals(changeId)) {
      nextSeq++;
      return true;
    }
    return false;
  }

  /** True when history has a command at the next number (whatever it is). */
  boolean hasNext() {
    return recorded.containsKey(nextSeq);
  }

  /** Takes the next number without a recorded command to match (a new patch marker). */
  long take() {
    return nextSeq++;
  }

  /** True the first time a retry ({@code kind}, {@code seq}, {@code number}) is written. */
  boolean firstRetry(String kind, long seq, int number) {
    return retries.add(retryKey(kind, seq, number));
  }

  /**
   * Check (b): the first command history has that the code did not issue before it ended {@code
   * how}, as a bounce; null when there is none.
   */
  RunResult.Bounced unissued(String how) {
    Long first =
        recorded.keySet().stream().filter(s -> s >= nextSeq).min(Long::compare).orElse(null);
    if (first == null) {
      return null;
    }
    HistoryEvent e = recorded.get(first);
    Command c = (Command) e.event();
    String expected = c.kind() + " " + c.label();
    String actual = "nothing (it " + how + ")";
    return new RunResult.Bounced(
        WorkflowFailure.NONDETERMINISM,
        prefix(first) + "history has " + expected + ", code issued " + actual,
        new Mismatch(e.eventId(), first, expected, actual));
  }

  private String prefix(long seq) {
    return "nondeterminism: "
        + spec.instanceId()
        + " execution "
        + spec.executionId()
        + " command #"
        + seq
        + ": ";
  }

  private static String retryKey(String kind, long seq, int retryNumber) {
    return kind + ":" + seq + ":" + retryNumber;
  }
}
