package io.redrive.server.ui;

import io.redrive.deadletter.Fingerprint;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstancePage;
import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.PoisonTarget;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Failed workflow instances grouped by the cause they failed of (docs/dashboard.md, "Workflow
 * failures"): a failure's fingerprint is {@link Fingerprint#ofText} over its reason (with what a
 * poison poisoned), the activity it happened in, and of its cause (the last try of a poison, else
 * the failure itself) the reason, exception class, message and stack frames, with the instance's
 * own ids taken out. The store has no index of failures, so the newest {@link #SCAN} failed
 * instances are read and grouped here. Stateless.
 */
final class WorkflowFailureGroups {
  /** How many of the newest failed instances are read. */
  static final int SCAN = 5_000;

  /** The kind the fingerprints are hashed under, apart from dead-letter groups' keys. */
  static final String KIND = "workflow";

  private WorkflowFailureGroups() {}

  /**
   * The failed instances read, newest first, only those the visitor may see.
   *
   * @param failed the visible failed instances with a failure
   * @param read how many failed instances were read (visible or not)
   * @param capped true when more failed instances exist than were read
   */
  record Read(List<InstanceInfo> failed, int read, boolean capped) {}

  /** The fingerprint of a failed instance's failure. */
  static Fingerprint.Text fingerprint(InstanceInfo i) {
    WorkflowFailure f = i.failure();
    // A poison's own text only counts tries; how its last try ended is what it died of.
    WorkflowFailure cause = f.lastAttempt() != null ? f.lastAttempt() : f;
    String reason = f.target() == null ? f.reason() : f.reason() + "/" + f.target().name();
    String type = f.target() == PoisonTarget.ACTIVITY ? f.activityName() : null;
    List<String> ids = new ArrayList<>();
    ids.add(i.id());
    ids.add(f.instanceId());
    ids.add(cause.instanceId());
    ids.addAll(f.via());
    return Fingerprint.ofText(
        KIND,
        reason,
        type,
        cause == f ? null : cause.reason(),
        cause.type(),
        withoutIds(cause.message(), ids),
        cause.stackTrace());
  }

  /**
   * {@code text} with each instance id replaced by {@code <instance>}, longest first: an id such as
   * {@code release-eu} is no generic id the normalisation would know.
   */
  static String withoutIds(String text, List<String> ids) {
    if (text == null) {
      return null;
    }
    List<String> sorted = new ArrayList<>();
    for (String id : ids) {
      if (id != null && !id.isBlank() && !sorted.contains(id)) {
        sorted.add(id);
      }
    }
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    String out = text;
    for (String id : sorted) {
      out = out.replace(id, "<instance>");
    }
    return out;
  }

  /**
   * The newest {@link #SCAN} failed instances matching {@code filters} (their status replaced by
   * FAILED; null for all), keeping those {@code r}'s key may see.
   */
  static Read read(WorkflowClient client, UiRequest r, WorkflowFilters filters) {
    List<InstanceInfo> failed = new ArrayList<>();
    String cursor = null;
    int read = 0;
    boolean capped = false;
    do {
      int limit = Math.min(InstanceQuery.MAX_LIMIT, SCAN - read);
      InstanceQuery q =
          (filters == null ? InstanceQuery.all(limit) : filters.query(limit, null))
              .withStatuses(EnumSet.of(InstanceStatus.FAILED))
              .withCursor(cursor);
      InstancePage page = client.list(q);
      for (InstanceInfo i : page.instances()) {
        read++;
        if (i.failure() != null && WorkflowAccess.visible(r, i.name())) {
          failed.add(i);
        }
      }
      cursor = page.nextCursor();
      capped = cursor != null && read >= SCAN;
    } while (cursor != null && read < SCAN);
    return new Read(failed, read, capped);
  }

  /** The instances of {@code failed} whose fingerprint is {@code key}, in their order. */
  static List<InstanceInfo> withKey(List<InstanceInfo> failed, String key) {
    List<InstanceInfo> out = new ArrayList<>();
    for (InstanceInfo i : failed) {
      if (fingerprint(i).key().equals(key)) {
        out.add(i);
      }
    }
    return out;
  }

  /** The groups of {@code failed}, the largest first (then the latest failure first). */
  static List<WorkflowFailureGroup> group(List<InstanceInfo> failed) {
    Map<String, List<InstanceInfo>> byKey = new LinkedHashMap<>();
    Map<String, Fingerprint.Text> pieces = new LinkedHashMap<>();
    for (InstanceInfo i : failed) {
      Fingerprint.Text f = fingerprint(i);
      byKey.computeIfAbsent(f.key(), k -> new ArrayList<>()).add(i);
      pieces.putIfAbsent(f.key(), f);
    }
    List<WorkflowFailureGroup> groups = new ArrayList<>();
    for (Map.Entry<String, List<InstanceInfo>> e : byKey.entrySet()) {
      List<InstanceInfo> members = e.getValue();
      InstanceInfo latest = members.get(0);
      Instant first = failedAt(latest);
      Instant last = failedAt(latest);
      TreeSet<String> names = new TreeSet<>();
      int retryable = 0;
      for (InstanceInfo i : members) {
        Instant t = failedAt(i);
        if (t.isBefore(first)) {
          first = t;
        }
        if (t.isAfter(last)) {
          last = t;
          latest = i;
        }
        names.add(i.name() + (i.version() == null ? "" : " " + i.version()));
        retryable += i.failure().isSystem() ? 1 : 0;
      }
      groups.add(
          new WorkflowFailureGroup(
              pieces.get(e.getKey()),
              members.size(),
              retryable,
              List.copyOf(names),
              latest.failure().display(),
              first,
              last,
              latest.id()));
    }
    groups.sort(
        Comparator.comparingInt(WorkflowFailureGroup::count)
            .reversed()
            .thenComparing(WorkflowFailureGroup::lastFailed, Comparator.reverseOrder()));
    return groups;
  }

  /** When an instance failed: its end, else its last change. */
  static Instant failedAt(InstanceInfo i) {
    return i.completedAt() != null ? i.completedAt() : i.updatedAt();
  }
}
