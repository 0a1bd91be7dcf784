package io.redrive.workflow;

import io.redrive.Redrive;
import io.redrive.internal.workflow.WorkflowStores;
import io.redrive.message.MessageIds;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceResult;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.trace.PublishTrace;
import io.redrive.trace.WorkflowStart;
import io.redrive.workflow.history.TraceContextCodec;
import io.redrive.workflow.replay.Payloads;
import java.sql.Connection;
import java.util.List;
import java.util.Map;

/**
 * A client's starts: the params a {@link StartRequest} becomes, with the trace context the engine's
 * tracing captured for it (docs/tracing.md, "Workflows"), written in the caller's transaction when
 * there is one. Thread-safe.
 */
final class InstanceStarts {
  private final Redrive redrive;
  private final WorkflowStore store;
  private final Payloads payloads;

  InstanceStarts(Redrive redrive, WorkflowStore store, Payloads payloads) {
    this.redrive = redrive;
    this.store = store;
    this.payloads = payloads;
  }

  /** Starts {@code request} on {@code connection}, or on the store's own when it is null. */
  StartInstanceResult start(Connection connection, StartRequest request) {
    String input = payloads.text(payloads.encode("input", request.input()));
    String id =
        request.instanceId() != null ? request.instanceId() : MessageIds.next(redrive.clock());
    PublishTrace trace =
        redrive
            .tracing()
            .startInstance(
                new WorkflowStart(id, request.name(), request.version(), request.traceHeaders()));
    // Untraced here, a context the starter gave is still kept for the turns: a traced runtime
    // elsewhere continues it, as a worker continues a message's traceparent.
    Map<String, String> context =
        trace.headers().isEmpty() ? request.traceHeaders() : trace.headers();
    StartInstanceParams p =
        new StartInstanceParams(
            id,
            request.name(),
            request.version(),
            input,
            request.startAt(),
            StoreRows.ifExists(request.ifExists()),
            redrive.clock().instant(),
            TraceContextCodec.encode(context));
    StartInstanceResult r;
    try {
      r = WorkflowStores.inCallerTransaction(redrive, connection, c -> store.startInstance(c, p));
      if (r == null) {
        r = connection == null ? store.startInstance(p) : store.startInstance(connection, p);
      }
    } catch (RuntimeException e) {
      trace.end(List.of(), e);
      throw e;
    }
    trace.end(List.of(r.instanceId()), null);
    return r;
  }
}
