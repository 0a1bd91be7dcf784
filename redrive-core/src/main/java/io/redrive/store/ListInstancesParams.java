package io.redrive.store;

import java.util.Objects;
import java.util.Set;

/**
 * Input of {@link WorkflowStore#listInstances}: filters (all optional) and a page, newest first.
 *
 * @param statuses only instances in one of these statuses; empty for any
 * @param name only instances of this orchestration, or null
 * @param rootId only the instances of this tree (the root included), or null
 * @param limit at most this many (1–1000)
 * @param cursor the {@link InstancePage#nextCursor()} of the page before, or null for the first
 */
public record ListInstancesParams(
    Set<InstanceRow.Status> statuses, String name, String rootId, int limit, String cursor) {
  public ListInstancesParams {
    statuses = Set.copyOf(Objects.requireNonNull(statuses, "statuses"));
    if (limit < 1 || limit > 1000) {
      throw new IllegalArgumentException("limit: 1 to 1000, was " + limit);
    }
    if (cursor != null && !cursor.matches("[0-9]{1,19}")) {
      throw new IllegalArgumentException("cursor: not a cursor this store gave, was " + cursor);
    }
  }

  /** The first page of every instance, {@code limit} at a time. */
  public static ListInstancesParams all(int limit) {
    return new ListInstancesParams(Set.of(), null, null, limit, null);
  }
}
