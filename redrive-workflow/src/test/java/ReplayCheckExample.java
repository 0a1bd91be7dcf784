import io.redrive.Redrive;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.ReplayCheckOptions;
import io.redrive.workflow.ReplayCheckReport;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowReplayer;

public final class ReplayCheckExample {
  /**
   * Throws, listing what would break, when {@code newBuild} cannot run the instances that are
   * running on {@code redrive}'s store or that an operator could retry; else returns the report.
   */
  public static ReplayCheckReport requireCompatible(Redrive redrive, WorkflowRegistry newBuild) {
    ReplayCheckReport report =
        WorkflowReplayer.checkLive(
            newBuild,
            WorkflowClient.on(redrive),
            ReplayCheckOptions.running()
                .withStatuses(InstanceStatus.RUNNING, InstanceStatus.FAILED));
    if (!report.ok()) {
      throw new AssertionError(report.toText());
    }
    return report;
  }
}
