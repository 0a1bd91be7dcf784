import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.sqlite.SqliteStore;
import io.redrive.testkit.ReadmeBlocks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's SQLite example: the same text, run as written twice in a row. */
class ReadmeSqliteExampleTest {
  @TempDir Path dir;

  @Test
  void readme_showsExactlyTheExampleTheTestRuns() throws Exception {
    assertThat(ReadmeBlocks.block("SqliteExample")).isEqualTo(ReadmeBlocks.source("SqliteExample"));
  }

  @Test
  void example_twiceInARow_sendsBothMessages() {
    SqliteExample.run(dir);
    SqliteExample.run(dir);

    try (Redrive redrive = Redrive.builder(SqliteStore.inDirectory(dir)).build()) {
      assertThat(redrive.listQueues()).hasSize(2);
      assertThat(redrive.stats("emails").total()).as("both messages were sent").isZero();
    }
  }
}
