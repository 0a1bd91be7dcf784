package io.redrive.workflow.runtime;

import io.redrive.message.NewMessage;
import io.redrive.store.EnqueueParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.ActivityStart;
import io.redrive.store.workflow.CommitTurnParams.ChildStart;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.TurnLease;
import io.redrive.trace.WorkflowTurn;
import io.redrive.workflow.history.TraceContextCodec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a turn tells the engine's tracing (docs/tracing.md, "Workflows"): the turn with the trace
 * context its instance's start captured, and the turn's own context carried by every activity
 * message and child instance the turn starts. Replay sees none of it. Stateless.
 */
final class TurnTracing {
  private TurnTracing() {}

  /** The turn {@code lease} runs, for {@code MessageTracing#turn}. */
  static WorkflowTurn turnOf(TurnLease lease) {
    InstanceRow i = lease.instance();
    return new WorkflowTurn(
        i.id(),
        i.name(),
        i.version(),
        i.executionId(),
        lease.attempt(),
        TraceContextCodec.decode(i.traceContext()));
  }

  /**
   * {@code p} with {@code headers} added to each activity message that carries none of them, and as
   * the trace context of each child instance it starts; {@code p} itself when there is none.
   */
  static CommitTurnParams carry(CommitTurnParams p, Map<String, String> headers) {
    if (headers.isEmpty() || (p.activities().isEmpty() && p.children().isEmpty())) {
      return p;
    }
    List<ActivityStart> activities =
        p.activities().stream()
            .map(
                a ->
                    new ActivityStart(
                        new EnqueueParams.Entry(
                            a.message().id(), withHeaders(a.message().message(), headers)),
                        a.seq(),
                        a.name(),
                        a.retryNumber()))
            .toList();
    String context = TraceContextCodec.encode(headers);
    List<ChildStart> children =
        p.children().stream()
            .map(
                c ->
                    new ChildStart(
                        c.instanceId(),
                        c.name(),
                        c.requestedVersion(),
                        c.input(),
                        c.parentSeq(),
                        c.conflictResult(),
                        context))
            .toList();
    return p.withWork(children, activities);
  }

  /** As the engine does for an enqueue: a message that carries its own trace context keeps it. */
  private static NewMessage withHeaders(NewMessage m, Map<String, String> headers) {
    if (headers.keySet().stream().anyMatch(m.headers()::containsKey)) {
      return m;
    }
    Map<String, String> all = new HashMap<>(m.headers());
    all.putAll(headers);
    return m.withHeaders(all);
  }
}
