/**
 * The workflow half of the store contract (docs/workflows.md): {@link
 * io.redrive.store.workflow.WorkflowStore} with one params record per method and the rows it
 * returns. Payloads are JSON text the store never interprets, except the activity results it writes
 * itself ({@link io.redrive.store.workflow.ActivityResult}). Exported only to the stores, the
 * testkits and the workflow module.
 */
package io.redrive.store.workflow;
