package io.redrive.sqlite.violation;

import io.redrive.postgres.PostgresStore;
import io.redrive.time.DurationText;

/** Breaks module rules on purpose (ModuleBoundaryRulesTest shows the rules catch it). */
public final class SqliteReachingOut {
  Class<?> otherStore = PostgresStore.class;
  Class<?> internal = DurationText.class;
}
