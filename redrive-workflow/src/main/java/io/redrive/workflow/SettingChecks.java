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

  static Duration notNegative(String field, Duration value) {
    if (value == null || value.isNegative()) {
      throw new IllegalArgumentException(field + ": must not be negative, was " + value);
    }
    return value;
  }

  static <T> T required(String field, T value) {
    if (value == null) {
      throw new IllegalArgumentException(field + ": is required");
    }
    return value;
  }

  static long atLeast(String field, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(field + ": must be at least " + min + ", was " + value);
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
