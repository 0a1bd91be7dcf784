/**
 * Tools for workflow tests written by Redrive's users (docs/workflows.md, "Finding failure points
 * in a unit test"): {@link io.redrive.workflow.testkit.WorkflowTestkit#explore} runs an
 * orchestration on an embedded SQLite store once cleanly and once per failure point.
 */
module io.redrive.workflow.testkit {
  requires transitive io.redrive.workflow;
  requires io.redrive.sqlite;

  exports io.redrive.workflow.testkit;
}
