import io.redrive.test.RedriveExtension;
import io.redrive.testkit.TestPostgres;
import io.redrive.workflow.testkit.WorkflowTestEnvironment;
import io.redrive.workflow.testkit.WorkflowTestExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

public final class OrderWorkflowPostgresTest {
  @RegisterExtension
  static RedriveExtension redrive = RedriveExtension.postgres(TestPostgres.adminUrl());

  @RegisterExtension
  static WorkflowTestExtension workflows = WorkflowTestExtension.of(OrderWorkflowTest::orders);

  @Test
  void shippedEvent_completesTheOrder(WorkflowTestEnvironment env) {
    String id = env.start("order", 4200);
    env.raiseEvent(id, "shipped", "TRACK-9");
    env.assertInstance(id).isCompletedWith("shipped as TRACK-9");
  }
}
