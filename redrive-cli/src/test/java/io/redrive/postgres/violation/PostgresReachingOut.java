package io.redrive.postgres.violation;

import io.redrive.sqlite.SqliteStore;

/** Breaks a module rule on purpose (ModuleBoundaryRulesTest shows the rule catches it). */
public final class PostgresReachingOut {
  Class<?> otherStore = SqliteStore.class;
}
