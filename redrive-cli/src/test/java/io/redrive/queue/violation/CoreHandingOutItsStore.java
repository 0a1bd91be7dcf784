package io.redrive.queue.violation;

import io.redrive.store.Store;

/** Breaks a module rule on purpose (ModuleBoundaryRulesTest shows the rule catches it). */
public final class CoreHandingOutItsStore {
  private Store store;

  public Store store() {
    return store;
  }
}
