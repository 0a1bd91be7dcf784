package io.redrive.failure;

/** Why an attempt failed, with its category and whether it is retried by default. */
public enum FailureReason {
  HANDLER_EXCEPTION(FailureCategory.APPLICATION, true),
  VALIDATION_FAILURE(FailureCategory.APPLICATION, false),
  SERIALIZATION_ERROR(FailureCategory.APPLICATION, false),
  TIMEOUT_EXCEEDED(FailureCategory.INFRASTRUCTURE, true),
  TRANSPORT_UNAVAILABLE(FailureCategory.INFRASTRUCTURE, true),
  DEPENDENCY_FAILURE(FailureCategory.INFRASTRUCTURE, true),
  LEASE_EXPIRED(FailureCategory.INFRASTRUCTURE, true),
  UNREGISTERED_HANDLER(FailureCategory.CONFIGURATION, true),
  POISON(FailureCategory.POISON, false),
  EXPIRED(FailureCategory.DEADLINE, false),
  UNKNOWN(FailureCategory.APPLICATION, true);

  private final FailureCategory category;
  private final boolean retryableByDefault;

  FailureReason(FailureCategory category, boolean retryableByDefault) {
    this.category = category;
    this.retryableByDefault = retryableByDefault;
  }

  public FailureCategory category() {
    return category;
  }

  public boolean retryableByDefault() {
    return retryableByDefault;
  }

  /**
   * Parses a reason name as given by a caller.
   *
   * @throws IllegalArgumentException naming the value and the allowed names
   */
  public static FailureReason parse(String field, String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(field + ": failure reason is required");
    }
    try {
      return valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          field
              + ": unknown failure reason \""
              + name
              + "\" (one of "
              + java.util.Arrays.toString(values())
              + ")");
    }
  }
}
