package io.redrive.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.Redrive;
import io.redrive.error.ConflictException;
import io.redrive.error.InstanceNotFoundException;
import io.redrive.internal.workflow.WorkflowStores;
import io.redrive.store.ReadySubscription;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.RaiseEventParams;
import io.redrive.store.workflow.RetryInstanceParams;
import io.redrive.store.workflow.StartInstanceResult;
import io.redrive.store.workflow.TerminateParams;
import io.redrive.store.workflow.TurnRow;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.InboxCodec;
import io.redrive.workflow.history.InboxMessage;
import io.redrive.workflow.replay.Payloads;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/** The {@link WorkflowClient} over a Redrive store's workflow half. */
final class StoreWorkflowClient implements WorkflowClient {
  private static final long AWAIT_POLL_MS = 20;
  private static final String NOT_RETRYABLE = "NOT_RETRYABLE";
  private static final String RETRIED_BY = "client";

  private final Redrive redrive;
  private final WorkflowStore store;
  private final Payloads payloads;
  private final LiveNodes nodes;
  private final InstanceStarts starts;

  StoreWorkflowClient(Redrive redrive, ObjectMapper mapper) {
    this.redrive = redrive;
    this.store = WorkflowStores.require(redrive);
    this.payloads = new Payloads(mapper, redrive.maxPayloadBytes());
    this.nodes = new LiveNodes(store, redrive.clock());
    this.starts = new InstanceStarts(redrive, store, payloads);
  }

  static boolean hasWorkflowHalf(Redrive redrive) {
    return WorkflowStores.of(redrive).isPresent();
  }

  @Override
  public StartResult start(StartRequest request) {
    return started(starts.start(null, request), request);
  }

  @Override
  public StartResult start(Connection connection, StartRequest request) {
    return started(starts.start(connection, request), request);
  }

  private StartResult started(StartInstanceResult r, StartRequest request) {
    return new StartResult(
        r.instanceId(), r.created(), nodes.startWarning(request.name(), request.version()));
  }

  @Override
  public List<WorkflowNode> nodes() {
    return nodes.list();
  }

  @Override
  public Optional<InstanceInfo> get(String instanceId) {
    return store.findInstance(instanceId).map(row -> StoreRows.info(row, payloads));
  }

  @Override
  public Optional<InstanceDetail> inspect(String instanceId) {
    Optional<InstanceRow> found = store.findInstance(instanceId);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    InstanceRow r = found.get();
    List<InboxRow> inbox = store.readInbox(r.id());
    boolean terminateRequested = inbox.stream().anyMatch(i -> "TERMINATE".equals(i.kind()));
    return Optional.of(
        new InstanceDetail(
            StoreRows.info(r, payloads),
            waiting(r, redrive.clock().instant()),
            pending(r, inbox),
            terminateRequested && !r.status().terminal()));
  }

  /**
   * A turn that holds a live lease runs now; otherwise counted tries mean the last ones failed and
   * the instance backs off until {@code notBefore}. An ended or idle instance waits on nothing.
   */
  private InstanceDetail.Waiting waiting(InstanceRow r, Instant now) {
    if (r.status().terminal()) {
      return null;
    }
    if (r.leasedBy() != null && r.leaseExpiresAt() != null && r.leaseExpiresAt().isAfter(now)) {
      return new InstanceDetail.Waiting(
          "IN_TURN", null, r.turnAttempt(), r.leaseExpiresAt(), r.leasedBy());
    }
    if (r.turnAttempt() == 0) {
      return null;
    }
    List<TurnRow> turns = store.readTimeline(r.id());
    TurnRow last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
    return new InstanceDetail.Waiting(
        last == null ? "RETRYING" : last.outcome(),
        last == null ? null : last.message(),
        r.turnAttempt(),
        r.notBefore() != null && r.notBefore().isAfter(now) ? r.notBefore() : null,
        last == null ? null : last.node());
  }

  /** Counts the current execution's commands without an answer, and buffered events. */
  private InstanceDetail.Pending pending(InstanceRow r, List<InboxRow> inbox) {
    int events = 0;
    Instant nextTimer = null;
    for (InboxRow i : inbox) {
      if ("EVENT_RAISED".equals(i.kind())) {
        events++;
      } else if ("TIMER_FIRED".equals(i.kind())
          && (nextTimer == null || i.visibleAt().isBefore(nextTimer))) {
        nextTimer = i.visibleAt();
      }
    }
    if (r.status().terminal()) {
      return new InstanceDetail.Pending(0, 0, events, 0, null);
    }
    Set<Long> open = new HashSet<>();
    int activities = 0;
    int timers = 0;
    int children = 0;
    for (HistoryRow e : store.readHistory(r.id(), r.executionId())) {
      if (e.seq() == null) {
        continue;
      }
      switch (e.kind()) {
        case "ACTIVITY_SCHEDULED", "TIMER_CREATED", "CHILD_SCHEDULED" -> open.add(key(e, e.kind()));
        case "ACTIVITY_COMPLETED", "ACTIVITY_FAILED" -> open.remove(key(e, "ACTIVITY_SCHEDULED"));
        case "TIMER_FIRED" -> open.remove(key(e, "TIMER_CREATED"));
        case "CHILD_COMPLETED", "CHILD_FAILED" -> open.remove(key(e, "CHILD_SCHEDULED"));
        default -> {}
      }
    }
    for (Long k : open) {
      switch ((int) (k & 3)) {
        case 0 -> activities++;
        case 1 -> timers++;
        default -> children++;
      }
    }
    return new InstanceDetail.Pending(activities, timers, events, children, nextTimer);
  }

  /** The command number with its kind in the two low bits, so one set holds all three kinds. */
  private static long key(HistoryRow e, String commandKind) {
    int kind =
        switch (commandKind) {
          case "ACTIVITY_SCHEDULED" -> 0;
          case "TIMER_CREATED" -> 1;
          default -> 2;
        };
    return (e.seq() << 2) | kind;
  }

  @Override
  public Map<InstanceStatus, Long> countByStatus() {
    Map<InstanceStatus, Long> counts = new EnumMap<>(InstanceStatus.class);
    store.countInstances().forEach((status, n) -> counts.put(StoreRows.status(status), n));
    return counts;
  }

  @Override
  public ReadySubscription subscribeTurns(Runnable listener) {
    return store.subscribeTurns(listener);
  }

  @Override
  public InstanceInfo await(String instanceId, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      InstanceInfo info =
          get(instanceId).orElseThrow(() -> new InstanceNotFoundException(instanceId));
      if (info.status().terminal() || System.nanoTime() >= deadline) {
        return info;
      }
      try {
        Thread.sleep(AWAIT_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return info;
      }
    }
  }

  @Override
  public <O> O awaitResult(String instanceId, Duration timeout, Class<O> type)
      throws TimeoutException {
    InstanceInfo info = await(instanceId, timeout);
    switch (info.status()) {
      case COMPLETED:
        return type.cast(payloads.decode("output", payloads.parse(info.output()), type));
      case FAILED:
      case TERMINATED:
        throw new WorkflowFailedException(info.failure());
      default:
        throw new TimeoutException(
            "instance " + instanceId + " is still " + info.status() + " after " + timeout);
    }
  }

  @Override
  public List<WorkflowEvent> history(String instanceId, Integer executionId) {
    return StoreRows.events(store.readHistory(instanceId, executionId));
  }

  @Override
  public List<TimelineEntry> timeline(String instanceId) {
    List<Timelines.Running> running = new java.util.ArrayList<>();
    for (io.redrive.store.workflow.ActivityLinkRow link : store.pendingActivities(instanceId)) {
      io.redrive.message.Message message;
      try {
        message = redrive.getMessage(link.messageId());
      } catch (io.redrive.error.MessageNotFoundException e) {
        message = null; // ended since the links were read: its result event has the story
      }
      running.add(new Timelines.Running(link, message));
    }
    return Timelines.of(
        store.readHistory(instanceId, null), store.readTimeline(instanceId), running, payloads);
  }

  @Override
  public boolean raiseEvent(String instanceId, String name, Object payload, String dedupeKey) {
    WorkflowRegistry.requireName("event name", name);
    String data = payloads.text(payloads.encode("event " + name + " payload", payload));
    return store.raiseEvent(
        new RaiseEventParams(instanceId, name, data, dedupeKey, redrive.clock().instant()));
  }

  @Override
  public InstanceInfo terminate(String instanceId, String reason) {
    store.requestTerminate(new TerminateParams(instanceId, reason, redrive.clock().instant()));
    return get(instanceId).orElseThrow(() -> new InstanceNotFoundException(instanceId));
  }

  @Override
  public DeleteResult delete(String instanceId, boolean force) {
    return StoreRows.deleted(store.deleteInstanceTree(instanceId, force));
  }

  @Override
  public InstanceInfo retry(String instanceId, String note) {
    InstanceRow row =
        store.findInstance(instanceId).orElseThrow(() -> new InstanceNotFoundException(instanceId));
    if (row.status() != Status.FAILED) {
      throw new ConflictException(
          ConflictException.NOT_FAILED,
          "instance " + instanceId + " is " + row.status() + "; only a failed instance is retried");
    }
    WorkflowFailure failure = WorkflowFailure.fromJson(payloads.parse(row.failure()));
    if (!failure.isSystem()) {
      throw new ConflictException(
          NOT_RETRYABLE,
          "instance "
              + instanceId
              + " failed with "
              + failure.reason()
              + ", which its code decided; only system failures (poison, nondeterminism,"
              + " an unreadable history) are retried");
    }
    // The instance where the failure began is revived first, then each one on the way up.
    Set<String> chain = new LinkedHashSet<>();
    if (failure.instanceId() != null) {
      chain.add(failure.instanceId());
    }
    chain.addAll(failure.via());
    chain.remove(instanceId);
    chain.add(instanceId);
    for (String id : chain) {
      retryOne(id, note);
    }
    return get(instanceId).orElseThrow(() -> new InstanceNotFoundException(instanceId));
  }

  private void retryOne(String instanceId, String note) {
    Optional<InstanceRow> found = store.findInstance(instanceId);
    if (found.isEmpty() || found.get().status() != Status.FAILED) {
      return;
    }
    InstanceRow row = found.get();
    List<HistoryRow> history = store.readHistory(instanceId, row.executionId());
    if (history.isEmpty()) {
      throw new IllegalStateException("instance " + instanceId + " failed without history");
    }
    HistoryRow failed = history.get(history.size() - 1);
    List<Integer> voided = new ArrayList<>(List.of(failed.eventId()));
    List<String> deadActivities = new ArrayList<>();
    boolean completionVoided = false;
    boolean localRetried = false;
    if (history.size() > 1) {
      HistoryRow before = history.get(history.size() - 2);
      Event completion =
          before.kind().equals(EventKind.ACTIVITY_FAILED)
                  || before.kind().equals(EventKind.CHILD_FAILED)
              ? HistoryEvent.parse(before, payloads.mapper()).event()
              : null;
      WorkflowFailure ended =
          completion instanceof Event.ActivityFailed a
              ? a.failure()
              : completion instanceof Event.ChildFailed c ? c.failure() : null;
      if (ended != null && ended.isSystem()) {
        voided.add(before.eventId());
        completionVoided = true;
        if (completion instanceof Event.ActivityFailed a && a.messageId() != null) {
          if (a.messageId().startsWith("local:")) {
            localRetried = true; // no message: the CHECKPOINT row makes the instance due again
          } else {
            deadActivities.add(a.messageId());
          }
        }
      }
    }
    List<NewInboxRow> inbox = new ArrayList<>();
    WorkflowFailure failure = WorkflowFailure.fromJson(payloads.parse(row.failure()));
    Instant now = redrive.clock().instant();
    if (!completionVoided && failure.poisonedMessage() != null) {
      for (InboxCodec.PoisonedRow r : InboxCodec.batchOf(failure.poisonedMessage())) {
        inbox.add(
            new NewInboxRow(
                instanceId, r.executionId(), r.kind(), r.refSeq(), r.name(), r.data(), now, null));
      }
    }
    if (localRetried) {
      InboxCodec.Stored wake = InboxCodec.encode(new InboxMessage.Checkpoint(List.of()));
      inbox.add(
          new NewInboxRow(
              instanceId, null, wake.kind(), null, null, wake.data(), now, "checkpoint"));
    }
    EventCodec.Stored data =
        EventCodec.encode(new Event.OrchestrationRetried(RETRIED_BY, note, voided));
    HistoryRow retried =
        new HistoryRow(
            row.executionId(),
            failed.eventId() + 1,
            data.kind(),
            null,
            null,
            payloads.text(data.data()),
            failed.turn(),
            now);
    store.retryInstance(
        new RetryInstanceParams(instanceId, retried, inbox, deadActivities, RETRIED_BY, note, now));
  }

  @Override
  public InstancePage list(InstanceQuery query) {
    io.redrive.store.workflow.InstancePage page = store.listInstances(StoreRows.params(query));
    return new InstancePage(
        page.instances().stream().map(row -> StoreRows.info(row, payloads)).toList(),
        page.nextCursor());
  }
}
