/**
 * Durable workflows on Redrive (docs/workflows.md): orchestrations replayed from their history,
 * activities run as messages of workflow-owned queues. It runs on the {@link
 * io.redrive.store.workflow.WorkflowStore} half of a Redrive store, reached through core's {@code
 * io.redrive.internal.workflow} (exported to this module alone); its API speaks its own records.
 */
module io.redrive.workflow {
  requires transitive io.redrive;
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.datatype.jsr310;
  requires transitive org.slf4j;

  exports io.redrive.workflow;
}
