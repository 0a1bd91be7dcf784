package io.redrive.store.workflow;

import java.time.Instant;
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
 * @param version only instances pinned to this version, or null
 * @param parentId only the direct children of this instance, or null
 * @param rootsOnly only instances without a parent
 * @param createdSince only instances started at or after this time, or null
 * @param createdBefore only instances started before this time, or null
 */
public record ListInstancesParams(
    Set<InstanceRow.Status> statuses,
    String name,
    String rootId,
    int limit,
    String cursor,
    String version,
    String parentId,
    boolean rootsOnly,
    Instant createdSince,
    Instant createdBefore) {
  public ListInstancesParams {
    statuses = Set.copyOf(Objects.requireNonNull(statuses, "statuses"));
    if (limit < 1 || limit > 1000) {
      throw new IllegalArgumentException("limit: 1 to 1000, was " + limit);
    }
    if (cursor != null && !cursor.matches("[0-9]{1,19}")) {
      throw new IllegalArgumentException("cursor: not a cursor this store gave, was " + cursor);
    }
    if (rootsOnly && parentId != null) {
      throw new IllegalArgumentException("parentId: a root has no parent; give one or rootsOnly");
    }
  }

  /** Filters by status, name and tree only. */
  public ListInstancesParams(
      Set<InstanceRow.Status> statuses, String name, String rootId, int limit, String cursor) {
    this(statuses, name, rootId, limit, cursor, null, null, false, null, null);
  }

  /** The first page of every instance, {@code limit} at a time. */
  public static ListInstancesParams all(int limit) {
    return new ListInstancesParams(Set.of(), null, null, limit, null);
  }

  public ListInstancesParams withVersion(String value) {
    return new ListInstancesParams(
        statuses,
        name,
        rootId,
        limit,
        cursor,
        value,
        parentId,
        rootsOnly,
        createdSince,
        createdBefore);
  }

  public ListInstancesParams withParentId(String value) {
    return new ListInstancesParams(
        statuses,
        name,
        rootId,
        limit,
        cursor,
        version,
        value,
        rootsOnly,
        createdSince,
        createdBefore);
  }

  public ListInstancesParams withRootsOnly(boolean value) {
    return new ListInstancesParams(
        statuses,
        name,
        rootId,
        limit,
        cursor,
        version,
        parentId,
        value,
        createdSince,
        createdBefore);
  }

  /** Only instances started in {@code [since, before)}; either may be null. */
  public ListInstancesParams withCreated(Instant since, Instant before) {
    return new ListInstancesParams(
        statuses, name, rootId, limit, cursor, version, parentId, rootsOnly, since, before);
  }

  public ListInstancesParams withCursor(String value) {
    return new ListInstancesParams(
        statuses,
        name,
        rootId,
        limit,
        value,
        version,
        parentId,
        rootsOnly,
        createdSince,
        createdBefore);
  }
}
