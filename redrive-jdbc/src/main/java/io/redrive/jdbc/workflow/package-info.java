/**
 * The workflow statements of the JDBC layer (docs/workflows.md): instances, turns, commits,
 * operations on instances, and {@link io.redrive.jdbc.workflow.ActivityEndings}, which tells an
 * instance of each end of its activity messages. {@code JdbcStore} (its workflow half, {@code
 * JdbcWorkflowStore}) reaches them through {@link io.redrive.jdbc.workflow.Workflows}; they reach
 * the queue statements only through {@code io.redrive.jdbc.owned}. Not exported.
 */
package io.redrive.jdbc.workflow;
