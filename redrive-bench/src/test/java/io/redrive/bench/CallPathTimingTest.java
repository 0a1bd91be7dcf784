package io.redrive.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.bench.CallPathTiming.Call;
import io.redrive.bench.CallPathTiming.Path;
import io.redrive.bench.CallPathTiming.Timing;
import io.redrive.bench.contender.SqliteTarget;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The call-path harness runs every call on both paths and settles all it enqueued; no speeds. */
class CallPathTimingTest {

  @Test
  void run_sqlite_timesEveryCallOnBothPaths(@TempDir java.nio.file.Path dir) {
    List<Timing> timings;
    try (SqliteTarget target = new SqliteTarget(dir)) {
      timings = CallPathTiming.run(target, 5, 2);
    }

    assertThat(timings).hasSize(Call.values().length * Path.values().length);
    for (Timing t : timings) {
      assertThat(t.store()).isEqualTo("sqlite");
      assertThat(t.calls()).as(t.toString()).isEqualTo(10);
      assertThat(t.p50()).as(t.toString()).isPositive().isLessThanOrEqualTo(t.p99());
    }
    assertThat(CallPathTiming.markdown(timings))
        .contains(
            "| sqlite | enqueue | 10 |",
            "| sqlite | complete | 10 |",
            "| sqlite | fail | 10 |",
            "| sqlite | complete_lookup | 10 |");
  }

  @Test
  void run_badCounts_isRejectedNamingThem(@TempDir java.nio.file.Path dir) {
    try (SqliteTarget target = new SqliteTarget(dir)) {
      assertThatThrownBy(() -> CallPathTiming.run(target, 0, 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("calls");
    }
  }
}
