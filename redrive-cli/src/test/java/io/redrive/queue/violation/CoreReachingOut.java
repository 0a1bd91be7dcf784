package io.redrive.queue.violation;

import io.redrive.sqlite.SqliteStore;

/** Breaks a module rule on purpose (ModuleBoundaryRulesTest shows the rule catches it). */
public final class CoreReachingOut {
  Class<?> store = SqliteStore.class;
}
