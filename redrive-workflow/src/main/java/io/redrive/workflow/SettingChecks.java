package io.redrive.workflow;

import java.time.Duration;

/** The range checks of {@link WorkflowRuntime.Builder}'s settings, with their error texts. */
final class SettingChecks {
  private SettingChecks() {}

  static Duration positive(String field, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(field + ": must be positive, was " + value);
    }
    return value;
  }

  static int between(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(field + ": must be " + min + "-" + max + ", was " + value);
    }
    return value;
  }
}
