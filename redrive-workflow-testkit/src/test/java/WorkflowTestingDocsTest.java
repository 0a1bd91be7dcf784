import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.ReadmeBlocks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/testing.md shows exactly the examples the build runs. */
class WorkflowTestingDocsTest {
  @Test
  void docs_showExactlyTheExamplesTheTestsRun() throws Exception {
    for (String example :
        new String[] {"OrderWorkflowTest", "OrderWorkflowPostgresTest", "OrderWorkflowPlainTest"}) {
      assertThat(ReadmeBlocks.block(Path.of("..", "docs", "testing.md"), example))
          .as(example)
          .isEqualTo(ReadmeBlocks.source(example));
    }
  }
}
