package io.redrive.store.workflow;

/** The one rule for instance ids, orchestration names and versions: short, printable text. */
final class WorkflowNames {
  private WorkflowNames() {}

  /** Checks {@code value}: 1–200 characters, not blank, no control characters. */
  static void require(String what, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + " is required");
    }
    if (value.length() > 200) {
      throw new IllegalArgumentException(what + ": at most 200 characters, was " + value.length());
    }
    if (value.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(what + ": control characters are not allowed");
    }
  }
}
