package io.redrive.workflow.testkit;

/**
 * One place where the explorer makes a run fail the way production fails (docs/workflows.md,
 * "Finding failure points in a unit test").
 *
 * @param kind what goes wrong
 * @param commit for {@link Kind#CRASH_BEFORE_COMMIT}: the turn commit (1 for the run's first) the
 *     node dies before; else 0
 * @param instanceId for the activity kinds: the instance that called the activity, named the same
 *     in every run: {@code root} for the explored instance, {@code root::sub::3} for a child it
 *     started; else null
 * @param activityName for the activity kinds: the activity, else null
 * @param activityId for the activity kinds: its command number, else 0
 * @param retryNumber for the activity kinds: which retry of the call (0 for the first), else 0
 */
public record FailurePoint(
    Kind kind,
    int commit,
    String instanceId,
    String activityName,
    long activityId,
    int retryNumber) {

  /** What goes wrong at a failure point. */
  public enum Kind {
    /**
     * The node dies after running a turn and before its commit: nothing of the turn is written, its
     * lease runs out, and the turn runs again (counted, a {@code LEASE_EXPIRED} turn row).
     */
    CRASH_BEFORE_COMMIT,
    /**
     * The activity's handler ran, but its result never reached the store (the node died, the
     * connection dropped): the message's lease runs out and the handler runs again.
     */
    SETTLE_LOST,
    /**
     * The handler stalls at its start (a long GC pause) until its lease runs out: the message is
     * delivered again and that run completes the activity; then the stalled run goes on, and its
     * late result is refused.
     */
    LEASE_EXPIRED_DURING_ACTIVITY
  }

  static FailurePoint crashBeforeCommit(int commit) {
    return new FailurePoint(Kind.CRASH_BEFORE_COMMIT, commit, null, null, 0, 0);
  }

  static FailurePoint activity(Kind kind, ActivityCall call) {
    return new FailurePoint(
        kind, 0, call.instanceId(), call.name(), call.activityId(), call.retryNumber());
  }

  /** The activity call this point is about (null for a crash before a commit). */
  ActivityCall call() {
    return activityName == null
        ? null
        : new ActivityCall(instanceId, activityName, activityId, retryNumber);
  }

  /** The point in words, e.g. {@code settle lost after activity charge#1 (retry 0)}. */
  public String describe() {
    return switch (kind) {
      case CRASH_BEFORE_COMMIT -> "crash before turn commit #" + commit;
      case SETTLE_LOST -> "settle lost after activity " + activityLabel();
      case LEASE_EXPIRED_DURING_ACTIVITY -> "lease expired during activity " + activityLabel();
    };
  }

  private String activityLabel() {
    return activityName
        + "#"
        + activityId
        + (retryNumber == 0 ? "" : " retry " + retryNumber)
        + (ROOT.equals(instanceId) ? "" : " of " + instanceId);
  }

  /** How the explored instance is named in failure points. */
  static final String ROOT = "root";

  @Override
  public String toString() {
    return describe();
  }

  /** An activity call, by who called it: the same in every run of the same code. */
  record ActivityCall(String instanceId, String name, long activityId, int retryNumber) {}
}
