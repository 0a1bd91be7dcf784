package io.redrive.postgres.violation;

import io.redrive.jdbc.workflow.Workflows;
import io.redrive.sqlite.SqliteStore;

/** Breaks module rules on purpose (ModuleBoundaryRulesTest shows the rules catch it). */
public final class PostgresReachingOut {
  Class<?> otherStore = SqliteStore.class;
  Class<?> jdbcInternal = Workflows.class;
}
