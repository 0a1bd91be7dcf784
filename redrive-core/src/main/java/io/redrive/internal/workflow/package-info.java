/**
 * The workflow module's one door into an engine's store ({@link
 * io.redrive.internal.workflow.WorkflowStores}): exported only to {@code io.redrive.workflow}, so
 * that {@link io.redrive.Redrive} hands its store to no one else (docs/workflows.md).
 */
package io.redrive.internal.workflow;
