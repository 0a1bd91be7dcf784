import io.redrive.test.TestRedrive;
import io.redrive.workflow.testkit.WorkflowTestEnvironment;
import java.time.Duration;
import org.junit.jupiter.api.Test;

public final class OrderWorkflowPlainTest {
  @Test
  void noEventIn30Days_refunds() {
    try (TestRedrive redrive = TestRedrive.open();
        WorkflowTestEnvironment env =
            WorkflowTestEnvironment.open(redrive, OrderWorkflowTest.orders())) {
      String id = env.start("order", 4200);
      env.skip(Duration.ofDays(30));
      env.assertInstance(id).isCompletedWith("refunded ch_4200");
    }
  }
}
