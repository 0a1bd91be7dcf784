package io.redrive.bench.contender;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.workflow.Queue;
import dev.dbos.transact.workflow.Workflow;
import dev.dbos.transact.workflow.WorkflowHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The bodies of {@link PeerWorkflows}. A fan-out's parts are child workflows because DBOS for Java
 * has no asynchronous step: a step runs on the workflow's own thread, so concurrency inside a
 * workflow means child workflows, started directly or on a queue ({@code parts} non-null).
 */
final class DbosWorkflows implements PeerWorkflows {
  private final DBOS dbos;
  private final Queue parts;
  private PeerWorkflows self;

  DbosWorkflows(DBOS dbos, Queue parts) {
    this.dbos = dbos;
    this.parts = parts;
  }

  /** The registered proxy: children must be started through it to be workflows. */
  void self(PeerWorkflows proxy) {
    this.self = proxy;
  }

  @Override
  @Workflow(name = "sequential")
  public int sequential(int n) {
    int a = dbos.runStep(() -> n + 1, "add");
    int b = dbos.runStep(() -> a + 1, "add");
    return dbos.runStep(() -> b + 1, "add");
  }

  @Override
  @Workflow(name = "fanOut")
  public int fanOut(int n) {
    List<WorkflowHandle<Integer, RuntimeException>> handles = new ArrayList<>(n);
    StartWorkflowOptions options =
        parts == null ? new StartWorkflowOptions() : new StartWorkflowOptions(parts);
    for (int i = 0; i < n; i++) {
      int part = i;
      handles.add(dbos.startWorkflow(() -> self.part(part), options));
    }
    int sum = 0;
    for (WorkflowHandle<Integer, RuntimeException> h : handles) {
      sum += h.getResult();
    }
    return sum;
  }

  @Override
  @Workflow(name = "part")
  public int part(int i) {
    return dbos.runStep(() -> i + 1, "add");
  }
}
