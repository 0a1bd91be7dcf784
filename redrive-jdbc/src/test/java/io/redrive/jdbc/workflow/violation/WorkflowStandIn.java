package io.redrive.jdbc.workflow.violation;

/**
 * Stands for a workflow class other than the facade (all of them are package-private, so no class
 * outside the package can name one to break a rule).
 */
public final class WorkflowStandIn {}
