/**
 * Tools for workflow tests written by Redrive's users (docs/testing.md, docs/workflows.md "Finding
 * failure points in a unit test"): {@link io.redrive.workflow.testkit.WorkflowTestEnvironment} runs
 * the real runtime on a {@code redrive-test} engine with stubbed activities and a clock that skips
 * ahead; {@link io.redrive.workflow.testkit.WorkflowTestkit#explore} runs an orchestration once
 * cleanly and once per failure point.
 */
module io.redrive.workflow.testkit {
  requires transitive io.redrive.workflow;
  requires transitive io.redrive.test;
  requires io.redrive.sqlite;
  requires com.fasterxml.jackson.databind;

  exports io.redrive.workflow.testkit;
}
