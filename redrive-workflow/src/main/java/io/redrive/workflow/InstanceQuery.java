package io.redrive.workflow;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * Which instances {@link InstanceReader#list} answers: filters (all optional) and a page, newest
 * first. Immutable; start from {@link #all(int)} and narrow with the {@code with*} methods.
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
public record InstanceQuery(
    Set<InstanceStatus> statuses,
    String name,
    String rootId,
    int limit,
    String cursor,
    String version,
    String parentId,
    boolean rootsOnly,
    Instant createdSince,
    Instant createdBefore) {
  /** The largest page. */
  public static final int MAX_LIMIT = 1000;

  /**
   * @throws IllegalArgumentException naming the field when {@code limit} is out of range or both
   *     {@code parentId} and {@code rootsOnly} are given
   */
  public InstanceQuery {
    statuses = Set.copyOf(Objects.requireNonNull(statuses, "statuses"));
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit: 1 to " + MAX_LIMIT + ", was " + limit);
    }
    if (rootsOnly && parentId != null) {
      throw new IllegalArgumentException("parentId: a root has no parent; give one or rootsOnly");
    }
  }

  /** The first page of every instance, {@code limit} at a time. */
  public static InstanceQuery all(int limit) {
    return new InstanceQuery(Set.of(), null, null, limit, null, null, null, false, null, null);
  }

  public InstanceQuery withStatuses(Set<InstanceStatus> value) {
    return new InstanceQuery(
        value,
        name,
        rootId,
        limit,
        cursor,
        version,
        parentId,
        rootsOnly,
        createdSince,
        createdBefore);
  }

  public InstanceQuery withName(String value) {
    return new InstanceQuery(
        statuses,
        value,
        rootId,
        limit,
        cursor,
        version,
        parentId,
        rootsOnly,
        createdSince,
        createdBefore);
  }

  public InstanceQuery withRootId(String value) {
    return new InstanceQuery(
        statuses,
        name,
        value,
        limit,
        cursor,
        version,
        parentId,
        rootsOnly,
        createdSince,
        createdBefore);
  }

  public InstanceQuery withVersion(String value) {
    return new InstanceQuery(
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

  public InstanceQuery withParentId(String value) {
    return new InstanceQuery(
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

  public InstanceQuery withRootsOnly(boolean value) {
    return new InstanceQuery(
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
  public InstanceQuery withCreated(Instant since, Instant before) {
    return new InstanceQuery(
        statuses, name, rootId, limit, cursor, version, parentId, rootsOnly, since, before);
  }

  public InstanceQuery withCursor(String value) {
    return new InstanceQuery(
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
