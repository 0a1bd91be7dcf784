package io.redrive.workflow;

/**
 * How one sub-orchestration call runs, given at the call site ({@link
 * OrchestrationContext#callSubOrchestration(String, Object,
 * com.fasterxml.jackson.core.type.TypeReference, SubOrchestrationOptions)}). Immutable. Build with
 * {@link #builder()} or start from {@link #defaults()} and use the withers.
 *
 * @param instanceId the child's instance id, or null for {@code <parent>::sub::<seq>} (seq = the
 *     call's command number, never repeated within the parent); 1–200 characters, no control
 *     characters. A child id already taken fails the call catchably (INSTANCE_EXISTS).
 * @param version the child's version, {@code MAJOR.MINOR.PATCH}, or null for the child's default
 *     version on the node that starts it
 * @param retry the application retries of this call; null is read as {@link RetryPolicy#none()}, so
 *     the accessor never returns null
 */
public record SubOrchestrationOptions(String instanceId, String version, RetryPolicy retry) {

  private static final SubOrchestrationOptions DEFAULTS =
      new SubOrchestrationOptions(null, null, null);

  /**
   * @throws IllegalArgumentException naming the option and value when the id or version is
   *     malformed
   */
  public SubOrchestrationOptions {
    if (instanceId != null) {
      WorkflowRegistry.requireName("instanceId", instanceId);
    }
    if (version != null) {
      Semver.parse("version", version);
    }
    retry = retry == null ? RetryPolicy.none() : retry;
  }

  /** A generated child id, the child's default version, no retries. */
  public static SubOrchestrationOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** These options with {@code value} as the child's id (null: generated). */
  public SubOrchestrationOptions withInstanceId(String value) {
    return new SubOrchestrationOptions(value, version, retry);
  }

  /** These options with {@code value} as the child's version (null: its default). */
  public SubOrchestrationOptions withVersion(String value) {
    return new SubOrchestrationOptions(instanceId, value, retry);
  }

  /** These options with {@code value} as the retry policy (null: none). */
  public SubOrchestrationOptions withRetry(RetryPolicy value) {
    return new SubOrchestrationOptions(instanceId, version, value);
  }

  /** Builder of {@link SubOrchestrationOptions}; unset fields are the defaults. Not thread-safe. */
  public static final class Builder {
    private String instanceId;
    private String version;
    private RetryPolicy retry;

    private Builder() {}

    public Builder instanceId(String value) {
      this.instanceId = value;
      return this;
    }

    public Builder version(String value) {
      this.version = value;
      return this;
    }

    public Builder retry(RetryPolicy value) {
      this.retry = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException as the record's constructor
     */
    public SubOrchestrationOptions build() {
      return new SubOrchestrationOptions(instanceId, version, retry);
    }
  }
}
