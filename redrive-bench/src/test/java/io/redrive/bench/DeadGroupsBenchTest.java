package io.redrive.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.bench.DeadGroupsBench.Result;
import io.redrive.bench.contender.SqliteTarget;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dead-letter groups benchmark's smoke form: one group per cause, every read timed; no speeds.
 */
class DeadGroupsBenchTest {

  @Test
  void run_sqlite_findsOneGroupPerCause(@TempDir Path dir) {
    Result r;
    try (SqliteTarget target = new SqliteTarget(dir)) {
      r = DeadGroupsBench.run(target, 1200, 7);
    }

    assertThat(r.dead()).isEqualTo(1200);
    assertThat(r.groups()).isEqualTo(7);
    assertThat(r.groupsWarmMs()).isPositive();
    assertThat(r.upgradeFirstMs()).isPositive();
  }
}
