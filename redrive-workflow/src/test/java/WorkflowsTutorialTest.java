import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.ReadmeBlocks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tutorial of docs/workflows.md: the same text, run as written. */
class WorkflowsTutorialTest {
  @TempDir Path dir;

  @Test
  void docs_showExactlyTheExampleTheTestRuns() throws Exception {
    assertThat(ReadmeBlocks.block(Path.of("..", "docs", "workflows.md"), "OrderWorkflowExample"))
        .isEqualTo(ReadmeBlocks.source("OrderWorkflowExample"));
  }

  @Test
  void example_runsTheOrderToItsEnd() throws Exception {
    assertThat(OrderWorkflowExample.run(dir))
        .isEqualTo("o-1 shipped as TRACK-9 after charge of 4200");
  }
}
