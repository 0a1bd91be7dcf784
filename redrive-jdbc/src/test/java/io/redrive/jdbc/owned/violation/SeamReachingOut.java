package io.redrive.jdbc.owned.violation;

import io.redrive.jdbc.workflow.Workflows;

/** Breaks a JDBC package rule on purpose (JdbcPackageRulesTest shows the rule catches it). */
public final class SeamReachingOut {
  Class<?> workflowSide = Workflows.class;
}
