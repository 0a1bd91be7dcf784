package io.redrive.workflow;

import java.time.Instant;
import java.util.Map;

/**
 * A request to start an orchestration instance.
 *
 * @param name the orchestration's name
 * @param version the version to run, or null for the default of the node that runs the first turn
 * @param instanceId the instance's id, or null for a new time-ordered id
 * @param input the input, written as JSON
 * @param startAt when the first turn may run, or null for at once
 * @param ifExists what happens when the id is taken (default FAIL)
 * @param traceHeaders the W3C trace context ({@code traceparent}, {@code tracestate}) the
 *     instance's trace continues, instead of the starting thread's current one (docs/tracing.md);
 *     empty for the current one. The server passes an HTTP request's.
 */
public record StartRequest(
    String name,
    String version,
    String instanceId,
    Object input,
    Instant startAt,
    IfExists ifExists,
    Map<String, String> traceHeaders) {
  public StartRequest {
    WorkflowRegistry.requireName("name", name);
    if (version != null) {
      Semver.parse("version", version);
    }
    ifExists = ifExists == null ? IfExists.FAIL : ifExists;
    traceHeaders = traceHeaders == null ? Map.of() : Map.copyOf(traceHeaders);
  }

  /** A request continuing the starting thread's current trace context. */
  public StartRequest(
      String name,
      String version,
      String instanceId,
      Object input,
      Instant startAt,
      IfExists ifExists) {
    this(name, version, instanceId, input, startAt, ifExists, Map.of());
  }

  /** What {@link WorkflowClient#start} does when an instance with the id exists. */
  public enum IfExists {
    /** Change nothing and fail with {@code INSTANCE_EXISTS}. */
    FAIL,
    /** Change nothing and answer the existing instance's id with {@code created = false}. */
    RETURN_EXISTING
  }

  /** Starts {@code name} with {@code input}: default version, a new id, at once. */
  public static StartRequest of(String name, Object input) {
    return new StartRequest(name, null, null, input, null, IfExists.FAIL);
  }

  public StartRequest withVersion(String value) {
    return new StartRequest(name, value, instanceId, input, startAt, ifExists, traceHeaders);
  }

  public StartRequest withInstanceId(String value) {
    return new StartRequest(name, version, value, input, startAt, ifExists, traceHeaders);
  }

  public StartRequest withStartAt(Instant value) {
    return new StartRequest(name, version, instanceId, input, value, ifExists, traceHeaders);
  }

  public StartRequest withIfExists(IfExists value) {
    return new StartRequest(name, version, instanceId, input, startAt, value, traceHeaders);
  }

  /** Continues the trace context in {@code value} (W3C headers) rather than the current one. */
  public StartRequest withTraceHeaders(Map<String, String> value) {
    return new StartRequest(name, version, instanceId, input, startAt, ifExists, value);
  }
}
