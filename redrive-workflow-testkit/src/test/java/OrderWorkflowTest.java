import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.test.RedriveTest;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.testkit.ActivityStub;
import io.redrive.workflow.testkit.WorkflowTestEnvironment;
import io.redrive.workflow.testkit.WorkflowTestExtension;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@RedriveTest
public final class OrderWorkflowTest {
  /** The application's registry: charge, wait 30 days for "shipped", refund if it never comes. */
  static WorkflowRegistry orders() {
    return WorkflowRegistry.builder()
        .orchestration(
            "order",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, cents) -> {
              String charge = ctx.callActivity("charge", cents, String.class).await();
              Optional<String> tracking =
                  ctx.waitForEvent("shipped", String.class, Duration.ofDays(30)).await();
              if (tracking.isEmpty()) {
                return ctx.callActivity("refund", charge, String.class).await();
              }
              return "shipped as " + tracking.get();
            })
        .activity("charge", Integer.class, String.class, (ctx, cents) -> "ch_" + cents)
        .activity("refund", String.class, String.class, (ctx, charge) -> "refunded " + charge)
        .build();
  }

  @RegisterExtension
  static WorkflowTestExtension workflows =
      WorkflowTestExtension.of(OrderWorkflowTest::orders)
          .with(WorkflowTestEnvironment.builder().maxAttempts(3));

  @Test
  void shippedEvent_completesTheOrder(WorkflowTestEnvironment env) {
    String id = env.start("order", 4200);
    env.raiseEvent(id, "shipped", "TRACK-9");
    env.assertInstance(id).isCompletedWith("shipped as TRACK-9");
  }

  @Test
  void noEventIn30Days_refunds(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.returning("ch_test"));
    String id = env.start("order", 4200);
    env.skip(Duration.ofDays(30));
    env.assertInstance(id).isCompletedWith("refunded ch_test");
    assertThat(env.calls("refund").inputs()).containsExactly("ch_test");
  }

  @Test
  void declinedCard_failsTheOrder(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.failing("card declined"));
    String id = env.start("order", 4200);
    env.assertInstance(id).isFailedWithMessageContaining("card declined");
  }

  @Test
  void chargeCrashingOnce_isDeliveredAgain(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.registered().crashingOnAttempt(1));
    String id = env.start("order", 4200);
    env.skip(Duration.ofMinutes(1)); // past the crashed delivery's lease
    env.raiseEvent(id, "shipped", "TRACK-9");
    env.assertInstance(id).isCompletedWith("shipped as TRACK-9");
    assertThat(env.calls("charge").count()).isEqualTo(2);
  }

  @Test
  void chargeCrashingEveryTime_isPoisoned(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.registered().crashingOnEveryAttempt());
    String id = env.start("order", 4200);
    env.runUntilEnded(id); // moves the clock past each crashed lease
    env.assertInstance(id).isFailedWithReason("POISON");
  }

  @Test
  void everyFailurePoint_leavesTheOutcome(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.answering((Integer cents) -> "ch_" + cents));
    assertThat(env.explore("order", 4200).differences()).isEmpty();
  }
}
