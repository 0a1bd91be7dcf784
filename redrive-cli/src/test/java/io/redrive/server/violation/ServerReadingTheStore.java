package io.redrive.server.violation;

import io.redrive.internal.workflow.WorkflowStores;
import io.redrive.store.Store;
import io.redrive.store.workflow.InstanceRow;

/** Breaks the one-door rules on purpose (ModuleBoundaryRulesTest shows the rules catch it). */
public final class ServerReadingTheStore {
  Class<?> door = WorkflowStores.class;
  Class<?> row = InstanceRow.class;

  void read(Store store) {
    store.findQueue("jobs");
  }
}
