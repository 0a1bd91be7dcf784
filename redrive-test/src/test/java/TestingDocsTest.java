import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.ReadmeBlocks;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** docs/testing.md shows exactly the example classes this module's build compiles and runs. */
class TestingDocsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "WelcomeEmailTest",
        "PaymentRetryTest",
        "InlineOrdersTest",
        "OrdersOnPostgresTest"
      })
  void docs_showExactlyTheExamplesTheBuildRuns(String example) throws Exception {
    assertThat(ReadmeBlocks.block(Path.of("..", "docs", "testing.md"), example))
        .isEqualTo(ReadmeBlocks.source(example));
  }
}
