package io.redrive.server.ui;

import io.redrive.failure.FailureReason;
import io.redrive.message.CrashEvidence;
import io.redrive.message.HistoryEntry;
import java.time.Duration;

/**
 * One entry of a message's story as the dashboard shows it: what happened in words an operator
 * reads at a glance ({@code threw}, {@code lease expired — likely crash}, {@code retried by
 * ui:ada}), with the entry itself for the details.
 *
 * @param entry the history entry
 * @param verdict what happened, in words
 * @param kind a CSS class for the verdict's colour ({@code ok}, {@code failed}, {@code crash},
 *     {@code dead}, {@code action}, {@code neutral})
 * @param operatorAction true for an operator's action (retry, redrive, dead-letter move, import)
 * @param took how long the delivery lasted, or null
 */
public record TimelineRow(
    HistoryEntry entry, String verdict, String kind, boolean operatorAction, Duration took) {

  /** The row for {@code e}. */
  public static TimelineRow of(HistoryEntry e) {
    Duration took =
        e.leasedAt() != null && e.settledAt() != null
            ? Duration.between(e.leasedAt(), e.settledAt())
            : null;
    FailureReason reason = e.failure() == null ? null : e.failure().reason();
    return switch (e.outcome()) {
      case LEASED -> new TimelineRow(e, "in progress (leased)", "neutral", false, took);
      case COMPLETED -> new TimelineRow(e, "completed", "ok", false, took);
      case FAILED -> new TimelineRow(e, failedVerdict(reason), "failed", false, took);
      case ABANDONED -> new TimelineRow(e, "abandoned", "failed", false, took);
      case RELEASED -> new TimelineRow(e, "released", "neutral", false, took);
      case LEASE_EXPIRED -> expired(e, took);
      case LEASE_UNDELIVERED ->
          new TimelineRow(e, "lease never reached the worker (refunded)", "neutral", false, took);
      case POISONED -> new TimelineRow(e, "poisoned", "dead", false, took);
      case EXPIRED -> new TimelineRow(e, "expired (deadline passed)", "dead", false, took);
      case RETRIED -> new TimelineRow(e, "retried" + by(e), "action", true, null);
      case RETRIED_NOW -> new TimelineRow(e, "made ready now" + by(e), "action", true, null);
      case REDRIVEN -> new TimelineRow(e, "redriven" + by(e), "action", true, null);
      case DEAD_LETTERED ->
          new TimelineRow(e, "moved to the dead-letter queue", "dead", true, null);
      case IMPORTED -> new TimelineRow(e, "imported" + by(e), "action", true, null);
      case REPLACED ->
          new TimelineRow(e, "replaced while waiting (unique key)", "action", false, null);
    };
  }

  /**
   * True when the timeline should name the failure's reason before its message: not when the
   * message starts with it already (a lease expiry's message does), so it is not said twice.
   */
  public boolean showReason() {
    if (entry.failure() == null) {
      return false;
    }
    String message = entry.failure().message();
    return message == null
        || !message
            .toLowerCase(java.util.Locale.ROOT)
            .startsWith(Fmt.words(entry.failure().reason()));
  }

  private static String failedVerdict(FailureReason reason) {
    if (reason == null) {
      return "failed";
    }
    return switch (reason) {
      case HANDLER_EXCEPTION -> "threw";
      case TIMEOUT_EXCEEDED -> "timed out";
      case UNREGISTERED_HANDLER -> "unregistered (no handler for its type)";
      case VALIDATION_FAILURE -> "rejected (validation failure)";
      case SERIALIZATION_ERROR -> "rejected (serialization error)";
      default -> "failed (" + Fmt.words(reason) + ")";
    };
  }

  private static String by(HistoryEntry e) {
    return e.worker() == null ? "" : " by " + e.worker();
  }

  /** A lease that ran out, in the words of its crash evidence when it has some. */
  private static TimelineRow expired(HistoryEntry e, Duration took) {
    CrashEvidence evidence = CrashEvidence.of(e).orElse(null);
    if (evidence == CrashEvidence.OUTAGE) {
      return new TimelineRow(
          e, "lease expired — outage, not counted as a crash", "neutral", false, took);
    }
    if (evidence == CrashEvidence.WORKER_DIED) {
      return new TimelineRow(e, "lease expired — worker died", "crash", false, took);
    }
    return new TimelineRow(e, "lease expired — likely crash", "crash", false, took);
  }
}
