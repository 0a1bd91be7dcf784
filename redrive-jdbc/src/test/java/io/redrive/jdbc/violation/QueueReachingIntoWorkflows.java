package io.redrive.jdbc.violation;

import io.redrive.jdbc.workflow.violation.WorkflowStandIn;

/** Breaks a JDBC package rule on purpose (JdbcPackageRulesTest shows the rule catches it). */
public final class QueueReachingIntoWorkflows {
  Class<?> workflowClass = WorkflowStandIn.class;
}
