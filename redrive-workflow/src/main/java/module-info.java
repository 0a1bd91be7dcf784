/**
 * Durable workflows on Redrive (docs/workflows.md): orchestrations replayed from their history,
 * activities run as messages of workflow-owned queues. The workflow store it runs on is the {@link
 * io.redrive.store.WorkflowStore} half of a Redrive store; the Java API and the runtime arrive here
 * next.
 */
module io.redrive.workflow {
  requires transitive io.redrive;
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.datatype.jsr310;
  requires transitive org.slf4j;

  exports io.redrive.workflow;
}
