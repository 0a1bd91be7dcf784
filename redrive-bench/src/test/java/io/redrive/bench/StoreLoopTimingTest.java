package io.redrive.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.bench.StoreLoopTiming.Timing;
import io.redrive.bench.contender.SqliteTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store-loop harness drains every message it enqueued and times each phase; no speeds. */
class StoreLoopTimingTest {

  @Test
  void run_sqlite_drainsTheBacklogAndTimesEachPhase(@TempDir java.nio.file.Path dir) {
    Timing t;
    try (SqliteTarget target = new SqliteTarget(dir)) {
      t = StoreLoopTiming.run(target, 10, 250);
    }

    assertThat(t.store()).isEqualTo("sqlite");
    assertThat(t.batch()).isEqualTo(10);
    assertThat(t.messages()).isEqualTo(250);
    assertThat(t.enqueue()).isPositive();
    assertThat(t.lease()).isPositive();
    assertThat(t.complete()).isPositive();
    assertThat(t.drainMicros()).isEqualTo(t.lease() + t.complete());
  }

  @Test
  void run_badBatch_isRejectedNamingIt(@TempDir java.nio.file.Path dir) {
    try (SqliteTarget target = new SqliteTarget(dir)) {
      assertThatThrownBy(() -> StoreLoopTiming.run(target, 0, 10))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("batch");
    }
  }
}
