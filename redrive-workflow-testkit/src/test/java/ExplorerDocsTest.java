import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.ReadmeBlocks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The explorer's example in docs/workflows.md is the test that runs as PaymentFailurePointsTest.
 */
class ExplorerDocsTest {
  @Test
  void docs_showExactlyTheExampleTheTestRuns() throws Exception {
    assertThat(
            ReadmeBlocks.block(Path.of("..", "docs", "workflows.md"), "PaymentFailurePointsTest"))
        .isEqualTo(ReadmeBlocks.source("PaymentFailurePointsTest"));
  }
}
