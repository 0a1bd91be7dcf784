package io.redrive.jdbc.workflow.violation;

import io.redrive.jdbc.JdbcStore;

/** Breaks a JDBC package rule on purpose (JdbcPackageRulesTest shows the rule catches it). */
public final class WorkflowsReachingIntoQueues {
  Class<?> queueClass = JdbcStore.class;
}
