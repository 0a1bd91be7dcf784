package io.redrive.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.Redrive;
import io.redrive.error.InstanceNotFoundException;
import io.redrive.message.MessageIds;
import io.redrive.store.DeleteTreeResult;
import io.redrive.store.HistoryRow;
import io.redrive.store.InstancePage;
import io.redrive.store.ListInstancesParams;
import io.redrive.store.RaiseEventParams;
import io.redrive.store.StartInstanceParams;
import io.redrive.store.StartInstanceResult;
import io.redrive.store.TerminateParams;
import io.redrive.store.WorkflowStore;
import io.redrive.workflow.replay.Payloads;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/** The {@link WorkflowClient} over a Redrive store's workflow half. */
final class StoreWorkflowClient implements WorkflowClient {
  private static final long AWAIT_POLL_MS = 20;

  private final Redrive redrive;
  private final WorkflowStore store;
  private final Payloads payloads;

  StoreWorkflowClient(Redrive redrive, ObjectMapper mapper) {
    this.redrive = redrive;
    if (!(redrive.store() instanceof WorkflowStore w)) {
      throw new IllegalArgumentException(
          "redrive: its store ("
              + redrive.store().getClass().getSimpleName()
              + ") has no workflow half (WorkflowStore)");
    }
    this.store = w;
    this.payloads = new Payloads(mapper, redrive.maxPayloadBytes());
  }

  @Override
  public StartResult start(StartRequest request) {
    StartInstanceResult r = store.startInstance(params(request));
    return new StartResult(r.instanceId(), r.created());
  }

  @Override
  public StartResult start(Connection connection, StartRequest request) {
    StartInstanceResult r = store.startInstance(connection, params(request));
    return new StartResult(r.instanceId(), r.created());
  }

  private StartInstanceParams params(StartRequest r) {
    String input = payloads.text(payloads.encode("input", r.input()));
    String id = r.instanceId() != null ? r.instanceId() : MessageIds.next(redrive.clock());
    return new StartInstanceParams(
        id, r.name(), r.version(), input, r.startAt(), r.ifExists(), redrive.clock().instant());
  }

  @Override
  public Optional<InstanceInfo> get(String instanceId) {
    return store.findInstance(instanceId).map(row -> InstanceInfo.of(row, payloads));
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
  public List<HistoryRow> history(String instanceId, Integer executionId) {
    return store.readHistory(instanceId, executionId);
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
  public DeleteTreeResult delete(String instanceId, boolean force) {
    return store.deleteInstanceTree(instanceId, force);
  }

  @Override
  public InstancePage list(ListInstancesParams query) {
    return store.listInstances(query);
  }
}
