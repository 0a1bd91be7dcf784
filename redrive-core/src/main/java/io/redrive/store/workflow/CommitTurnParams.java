package io.redrive.store.workflow;

import io.redrive.store.EnqueueParams;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Input of {@link WorkflowStore#commitTurn}: everything one turn decided, written in one
 * transaction under the turn token, or nothing at all.
 *
 * @param instanceId the instance
 * @param token the turn token
 * @param instance the instance as it is after the turn
 * @param executions execution rows to write (insert, or replace their changing fields)
 * @param history events appended to {@code instance.executionId}'s history; their ids continue the
 *     stored history without a gap
 * @param inboxDeletes inbox rows of this instance the turn consumed or cancelled (the batch's exact
 *     sequence numbers; rows that arrived during the turn stay)
 * @param inboxInserts new inbox rows: this instance's timers and CONTINUE row, a parent's
 *     CHILD_RESULT, a child's TERMINATE
 * @param children child instances to start, each with its START row
 * @param activities activity messages to enqueue into workflow-owned queues, with their links
 * @param now the engine's clock
 * @param keepLease null for a commit that ends the turn (the lease is released and the inbox
 *     announced); otherwise a <em>checkpoint</em>: the turn goes on under the same token, its lease
 *     kept for this long from {@code now}, its try still counted ({@code turn_attempt} 1, so a
 *     lease after a crash counts 2), and nothing announced for this instance (no other node may
 *     take it); positive
 * @param inboxDeleteKeys dedupe keys of this instance's inbox rows to delete beside {@code
 *     inboxDeletes} (rows the turn wrote itself, whose sequence numbers it never saw)
 * @param stickyNode the node the instance sticks to after this commit (docs/workflows.md, "History
 *     cache"): the committing node, when it keeps the history for the next turn; null for none.
 *     Until an inbox row of the instance has been visible for a leasing node's {@link
 *     LeaseTurnParams#stickyWait}, only this node leases its turn
 */
public record CommitTurnParams(
    String instanceId,
    String token,
    InstanceUpdate instance,
    List<ExecutionRow> executions,
    List<HistoryRow> history,
    List<Long> inboxDeletes,
    List<NewInboxRow> inboxInserts,
    List<ChildStart> children,
    List<ActivityStart> activities,
    Instant now,
    Duration keepLease,
    List<String> inboxDeleteKeys,
    String stickyNode) {

  /**
   * The inbox row kinds (docs/workflows.md). A CHECKPOINT row is the runtime's own: written by a
   * checkpoint whose local activities are still to run, it keeps the instance due should the turn's
   * lease run out.
   */
  public static final Set<String> INBOX_KINDS =
      Set.of(
          "START",
          "CONTINUE",
          "ACTIVITY_RESULT",
          "TIMER_FIRED",
          "EVENT_RAISED",
          "CHILD_RESULT",
          "TERMINATE",
          "CHECKPOINT");

  public CommitTurnParams {
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(now, "now");
    executions = List.copyOf(executions);
    history = List.copyOf(history);
    inboxDeletes = List.copyOf(inboxDeletes);
    inboxInserts = List.copyOf(inboxInserts);
    children = List.copyOf(children);
    activities = List.copyOf(activities);
    inboxDeleteKeys = List.copyOf(inboxDeleteKeys);
    if (keepLease != null && (keepLease.isNegative() || keepLease.isZero())) {
      throw new IllegalArgumentException("keepLease: must be positive, was " + keepLease);
    }
    for (int i = 0; i < history.size(); i++) {
      HistoryRow e = history.get(i);
      if (e.executionId() != instance.executionId()) {
        throw new IllegalArgumentException(
            "history: event "
                + e.eventId()
                + " is for execution "
                + e.executionId()
                + ", the turn commits execution "
                + instance.executionId());
      }
      if (i > 0 && e.eventId() != history.get(i - 1).eventId() + 1) {
        throw new IllegalArgumentException(
            "history: event ids must be contiguous, "
                + history.get(i - 1).eventId()
                + " is followed by "
                + e.eventId());
      }
      if (e.kind() == null || e.kind().isBlank() || e.data() == null) {
        throw new IllegalArgumentException(
            "history: event " + e.eventId() + " needs a kind and data");
      }
    }
  }

  /** A commit that leaves the instance to no node in particular. */
  public CommitTurnParams(
      String instanceId,
      String token,
      InstanceUpdate instance,
      List<ExecutionRow> executions,
      List<HistoryRow> history,
      List<Long> inboxDeletes,
      List<NewInboxRow> inboxInserts,
      List<ChildStart> children,
      List<ActivityStart> activities,
      Instant now,
      Duration keepLease,
      List<String> inboxDeleteKeys) {
    this(
        instanceId,
        token,
        instance,
        executions,
        history,
        inboxDeletes,
        inboxInserts,
        children,
        activities,
        now,
        keepLease,
        inboxDeleteKeys,
        null);
  }

  /** A commit that ends the turn: the lease is released, nothing is deleted by key. */
  public CommitTurnParams(
      String instanceId,
      String token,
      InstanceUpdate instance,
      List<ExecutionRow> executions,
      List<HistoryRow> history,
      List<Long> inboxDeletes,
      List<NewInboxRow> inboxInserts,
      List<ChildStart> children,
      List<ActivityStart> activities,
      Instant now) {
    this(
        instanceId,
        token,
        instance,
        executions,
        history,
        inboxDeletes,
        inboxInserts,
        children,
        activities,
        now,
        null,
        List.of());
  }

  /** This commit with the instance sticking to {@code node} (null: to none). */
  public CommitTurnParams stickingTo(String node) {
    return new CommitTurnParams(
        instanceId,
        token,
        instance,
        executions,
        history,
        inboxDeletes,
        inboxInserts,
        children,
        activities,
        now,
        keepLease,
        inboxDeleteKeys,
        node);
  }

  /** This commit with other child starts and activity messages, all else kept. */
  public CommitTurnParams withWork(
      List<ChildStart> newChildren, List<ActivityStart> newActivities) {
    return new CommitTurnParams(
        instanceId,
        token,
        instance,
        executions,
        history,
        inboxDeletes,
        inboxInserts,
        newChildren,
        newActivities,
        now,
        keepLease,
        inboxDeleteKeys,
        stickyNode);
  }

  /** True for a checkpoint: the turn goes on under its token (see {@code keepLease}). */
  public boolean checkpoint() {
    return keepLease != null;
  }

  /** Bytes of the appended events' data (UTF-8), for the instance's history counters. */
  public long historyBytes() {
    long bytes = 0;
    for (HistoryRow e : history) {
      bytes += e.data().getBytes(StandardCharsets.UTF_8).length;
    }
    return bytes;
  }

  /**
   * The instance after the turn. A terminal status also ends what waits for it: its remaining inbox
   * rows (timers included) are deleted and its activity messages not yet leased are cancelled.
   *
   * @param status RUNNING or a terminal status (a commit always moves an instance out of PENDING)
   * @param executionId the current execution after the turn
   * @param version the pinned version, or null while unresolved
   * @param input the current execution's input, or null
   * @param output the output, or null
   * @param failure the failure JSON, or null
   * @param customStatus the status the orchestration set, or null
   */
  public record InstanceUpdate(
      InstanceRow.Status status,
      int executionId,
      String version,
      String input,
      String output,
      String failure,
      String customStatus) {
    public InstanceUpdate {
      Objects.requireNonNull(status, "status");
      if (status == InstanceRow.Status.PENDING) {
        throw new IllegalArgumentException("status: a commit moves an instance out of PENDING");
      }
      if (executionId < 1) {
        throw new IllegalArgumentException("executionId: must be at least 1, was " + executionId);
      }
      if (version != null) {
        WorkflowNames.require("version", version);
      }
    }
  }

  /**
   * A new inbox row. One for another instance is written only if that instance exists; one with a
   * dedupe key already in its instance's inbox is dropped.
   *
   * @param instanceId the instance it is for
   * @param executionId the execution it is for, or null for whichever is current when it is taken
   * @param kind one of {@link #INBOX_KINDS}
   * @param refSeq the command it answers, or null
   * @param name a name it carries, or null
   * @param data its JSON, or null
   * @param visibleAt when it may be taken (a timer's fire time)
   * @param dedupeKey a key unique within the instance's inbox, or null
   */
  public record NewInboxRow(
      String instanceId,
      Integer executionId,
      String kind,
      Long refSeq,
      String name,
      String data,
      Instant visibleAt,
      String dedupeKey) {
    public NewInboxRow {
      WorkflowNames.require("instanceId", instanceId);
      if (!INBOX_KINDS.contains(kind)) {
        throw new IllegalArgumentException(
            "kind: one of " + INBOX_KINDS.stream().sorted().toList() + ", was " + kind);
      }
      Objects.requireNonNull(visibleAt, "visibleAt");
    }
  }

  /**
   * A child instance the turn starts (PENDING, with its START row; parent and root set from this
   * instance). When the id is taken and {@code conflictResult} is given, this instance gets a
   * CHILD_RESULT row with it instead; otherwise the existing instance stands.
   *
   * @param instanceId the child's id
   * @param name its orchestration's name
   * @param requestedVersion the version asked for, or null
   * @param input its input JSON, or null
   * @param parentSeq the command sequence number of the parent's CHILD_SCHEDULED
   * @param conflictResult the CHILD_RESULT JSON for a taken id, or null
   * @param traceContext the trace context the child's turns continue (JSON text), or null
   */
  public record ChildStart(
      String instanceId,
      String name,
      String requestedVersion,
      String input,
      long parentSeq,
      String conflictResult,
      String traceContext) {

    /** A child start with no trace context. */
    public ChildStart(
        String instanceId,
        String name,
        String requestedVersion,
        String input,
        long parentSeq,
        String conflictResult) {
      this(instanceId, name, requestedVersion, input, parentSeq, conflictResult, null);
    }

    public ChildStart {
      WorkflowNames.require("instanceId", instanceId);
      WorkflowNames.require("name", name);
      if (requestedVersion != null) {
        WorkflowNames.require("requestedVersion", requestedVersion);
      }
    }
  }

  /**
   * An activity message (enqueued as a message is, on the commit's connection) and its link to the
   * command that scheduled it, in the committing execution.
   *
   * @param message the message and the id the engine gave it; its queue must be workflow-owned
   * @param seq the command sequence number of the ACTIVITY_SCHEDULED
   * @param name the activity's name
   * @param retryNumber 0 for the first try, +1 for each retry the retry policy scheduled
   */
  public record ActivityStart(EnqueueParams.Entry message, long seq, String name, int retryNumber) {
    public ActivityStart {
      Objects.requireNonNull(message, "message");
      WorkflowNames.require("name", name);
      if (retryNumber < 0) {
        throw new IllegalArgumentException("retryNumber: must be at least 0, was " + retryNumber);
      }
    }
  }
}
