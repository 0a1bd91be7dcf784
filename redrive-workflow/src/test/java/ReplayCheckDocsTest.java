import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.sqlite.SqliteStore;
import io.redrive.testkit.ReadmeBlocks;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay check of docs/workflows.md: the same text, run against a waiting instance. */
class ReplayCheckDocsTest {
  @TempDir Path dir;

  private static WorkflowRegistry build(String firstActivity) {
    return WorkflowRegistry.builder()
        .orchestration(
            "greet",
            "1.0.0",
            String.class,
            String.class,
            (ctx, name) -> {
              String hello = ctx.callActivity(firstActivity, name, String.class).await();
              return hello + ctx.waitForEvent("answer", String.class).await();
            })
        .activity("hello", String.class, String.class, (ctx, name) -> "hello " + name)
        .activity("hi", String.class, String.class, (ctx, name) -> "hi " + name)
        .build();
  }

  @Test
  void docs_showExactlyTheExampleTheTestRuns() throws Exception {
    assertThat(ReadmeBlocks.block(Path.of("..", "docs", "workflows.md"), "ReplayCheckExample"))
        .isEqualTo(ReadmeBlocks.source("ReplayCheckExample"));
  }

  @Test
  void example_passesTheSameBuildAndRefusesAChangedOne() throws Exception {
    try (Redrive redrive = Redrive.builder(SqliteStore.inDirectory(dir)).build()) {
      WorkflowClient client = WorkflowClient.on(redrive);
      try (WorkflowRuntime runtime =
          WorkflowRuntime.builder(redrive, build("hello")).build().start()) {
        client.start(StartRequest.of("greet", "ada").withInstanceId("greet-1"));
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> client.history("greet-1", 1).size() >= 5); // the activity's result taken
      }

      assertThat(ReplayCheckExample.requireCompatible(redrive, build("hello")).checked())
          .isEqualTo(1);
      assertThatThrownBy(() -> ReplayCheckExample.requireCompatible(redrive, build("hi")))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("NONDETERMINISM     greet-1 greet@1.0.0 execution 1 at event #3")
          .hasMessageContaining("history has ACTIVITY_SCHEDULED hello, code issued");
    }
  }
}
