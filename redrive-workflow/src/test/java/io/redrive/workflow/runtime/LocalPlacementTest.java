package io.redrive.workflow.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.WorkflowRegistry;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Where a node places the activity calls it issues (docs/workflows.md). */
class LocalPlacementTest {
  private static final WorkflowRegistry REGISTRY =
      WorkflowRegistry.builder()
          .activity(
              ActivityRegistration.of("Short", String.class, String.class, (c, in) -> in)
                  .withTimeout(Duration.ofSeconds(5)))
          .activity(
              ActivityRegistration.of("Long", String.class, String.class, (c, in) -> in)
                  .withTimeout(Duration.ofMinutes(5)))
          .activity("Undeclared", String.class, String.class, (c, in) -> in)
          .build();

  private static LocalPlacement placement(boolean runsActivities) {
    return new LocalPlacement(
        REGISTRY,
        new RuntimeSettings(
            "n",
            null,
            10,
            2,
            UnregisteredHandlerBackoff.DEFAULT,
            Duration.ofSeconds(15),
            Duration.ofSeconds(60),
            Duration.ofSeconds(30),
            4,
            8,
            Set.of("wf.activities"),
            500,
            10_000,
            1 << 24,
            Duration.ofSeconds(1),
            true,
            runsActivities,
            0,
            Duration.ZERO));
  }

  @Test
  void auto_localOnlyForADeclaredShortTimeoutAndNoQueue() {
    LocalPlacement p = placement(true);
    ActivityOptions auto = ActivityOptions.defaults();

    assertThat(p.local("Short", auto)).isTrue();
    assertThat(p.local("Long", auto)).as("declared, longer than 30 s").isFalse();
    assertThat(p.local("Undeclared", auto)).as("no declared timeout").isFalse();
    assertThat(p.local("Short", auto.withTimeout(Duration.ofMinutes(1))))
        .as("the call's own timeout is longer")
        .isFalse();
    assertThat(p.local("Short", auto.withQueue("wf.other"))).as("a queue named").isFalse();
    assertThat(p.local("Missing", auto)).isFalse();
  }

  @Test
  void auto_priorityOrLimitKey_queuesTheCallSinceOnlyAMessageHonoursThem() {
    LocalPlacement p = placement(true);

    assertThat(p.local("Short", ActivityOptions.defaults().withPriority(7))).isFalse();
    assertThat(p.local("Short", ActivityOptions.defaults().withLimitKey("tenant-1"))).isFalse();
    assertThat(p.local("Short", ActivityOptions.local().withLimitKey("tenant-1")))
        .as("LOCAL is the caller's explicit choice")
        .isTrue();
  }

  @Test
  void local_whenRegisteredAndRunningActivities_queued_never() {
    assertThat(placement(true).local("Undeclared", ActivityOptions.local())).isTrue();
    assertThat(placement(true).local("Long", ActivityOptions.local())).isTrue();
    assertThat(placement(true).local("Missing", ActivityOptions.local())).isFalse();
    assertThat(placement(false).local("Short", ActivityOptions.local()))
        .as("a node without the ACTIVITIES role")
        .isFalse();
    assertThat(placement(true).local("Short", ActivityOptions.queued())).isFalse();
  }

  @Test
  void settings_capTheLocalTimeoutAtHalfATurn() {
    RuntimeSettings s =
        new RuntimeSettings(
            "n",
            null,
            10,
            2,
            UnregisteredHandlerBackoff.DEFAULT,
            Duration.ofSeconds(15),
            Duration.ofSeconds(4),
            Duration.ofSeconds(30),
            4,
            8,
            Set.of("wf.activities"),
            500,
            10_000,
            1 << 24,
            Duration.ofSeconds(1),
            true,
            true,
            0,
            Duration.ZERO);
    assertThat(s.localActivityMaxTimeout()).isEqualTo(Duration.ofSeconds(2));
  }
}
