package io.redrive.failure;

/** Who or what caused a failure; drives dashboards and, later, crash- and outage-aware budgets. */
public enum FailureCategory {
  APPLICATION,
  INFRASTRUCTURE,
  CONFIGURATION,
  POISON,
  DEADLINE
}
