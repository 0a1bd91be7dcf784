package io.redrive.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which instances {@link WorkflowReplayer#checkLive(WorkflowRegistry, WorkflowClient,
 * ReplayCheckOptions)} checks, and how it reads their payloads. Immutable; start from {@link
 * #running()}.
 *
 * @param statuses the instances to check by status: RUNNING (the default), FAILED (would an
 *     operator's retry run on the new build?), PENDING (not started yet: only their {@code
 *     name@version} is checked); not empty
 * @param name only instances of this orchestration, or null for every one
 * @param limit check at most this many instances (1 or more; {@link #NO_LIMIT} for all); the report
 *     says when more matched
 * @param objectMapper the JSON settings the new build's runtime reads payloads with, or null for
 *     the runtime's default
 */
public record ReplayCheckOptions(
    Set<InstanceStatus> statuses, String name, int limit, ObjectMapper objectMapper) {
  /** The {@code limit} that checks every matching instance. */
  public static final int NO_LIMIT = Integer.MAX_VALUE;

  private static final Set<InstanceStatus> CHECKABLE =
      EnumSet.of(InstanceStatus.PENDING, InstanceStatus.RUNNING, InstanceStatus.FAILED);

  /**
   * @throws IllegalArgumentException naming the option and value when one is out of range
   */
  public ReplayCheckOptions {
    if (statuses == null || statuses.isEmpty()) {
      throw new IllegalArgumentException("statuses: at least one, was " + statuses);
    }
    for (InstanceStatus s : statuses) {
      if (!CHECKABLE.contains(s)) {
        throw new IllegalArgumentException(
            "statuses: PENDING, RUNNING or FAILED (an instance that ended otherwise never"
                + " replays again), was "
                + s);
      }
    }
    statuses = Set.copyOf(statuses);
    if (name != null) {
      WorkflowRegistry.requireName("name", name);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit: 1 or more, was " + limit);
    }
  }

  /** Every RUNNING instance, with the default JSON settings. */
  public static ReplayCheckOptions running() {
    return new ReplayCheckOptions(Set.of(InstanceStatus.RUNNING), null, NO_LIMIT, null);
  }

  /** These options checking instances in {@code statuses} instead. */
  public ReplayCheckOptions withStatuses(InstanceStatus... statuses) {
    return new ReplayCheckOptions(Set.copyOf(List.of(statuses)), name, limit, objectMapper);
  }

  /** These options checking only instances of orchestration {@code name} (null for all). */
  public ReplayCheckOptions withName(String name) {
    return new ReplayCheckOptions(statuses, name, limit, objectMapper);
  }

  /** These options checking at most {@code limit} instances. */
  public ReplayCheckOptions withLimit(int limit) {
    return new ReplayCheckOptions(statuses, name, limit, objectMapper);
  }

  /** These options reading payloads with {@code objectMapper} (null for the default). */
  public ReplayCheckOptions withObjectMapper(ObjectMapper objectMapper) {
    return new ReplayCheckOptions(statuses, name, limit, objectMapper);
  }
}
