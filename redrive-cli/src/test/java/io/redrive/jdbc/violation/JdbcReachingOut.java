package io.redrive.jdbc.violation;

import io.redrive.sqlite.SqliteStore;

/** Breaks a module rule on purpose (ModuleBoundaryRulesTest shows the rule catches it). */
public final class JdbcReachingOut {
  Class<?> store = SqliteStore.class;
}
