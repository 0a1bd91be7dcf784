package io.redrive.server.ui;

import io.javalin.http.HttpStatus;
import io.redrive.deadletter.Fingerprint;
import io.redrive.error.ConflictException;
import io.redrive.error.InstanceNotFoundException;
import io.redrive.error.NotFoundException;
import io.redrive.server.auth.Permission;
import io.redrive.workflow.InstanceInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The workflow failures page (docs/dashboard.md, "Workflow failures"): failed instances grouped by
 * the cause they failed of ({@link WorkflowFailureGroups}), and the bulk retry of a group behind a
 * confirmation that counts by a dry run, as for dead letters. A retry is authorized as the single
 * instance's (ADMIN) and reaches only instances the key's {@code workflows} scope includes; it runs
 * in the request, one {@code retry} per instance, at most as many as were confirmed.
 */
final class WorkflowFailurePages {
  private static final String ROOT = Dashboard.ROOT + "/workflows/failures";

  private final Dashboard dashboard;
  private final WorkflowAccess access; // null: the store keeps no workflows

  WorkflowFailurePages(Dashboard dashboard, WorkflowAccess access) {
    this.dashboard = dashboard;
    this.access = access;
  }

  /** Registered before the instance pages, whose {@code /ui/workflows/{id}} would match too. */
  void register(Dashboard.Routes routes) {
    routes.add("GET", ROOT, this::groups);
    routes.add("GET", ROOT + "/{key}/confirm", this::confirm);
    routes.add("POST", ROOT + "/{key}/retry", this::retryAll);
  }

  private void groups(UiRequest r) {
    if (access == null) {
      dashboard.page(r, "workflows-off.jte", "Workflows", "");
      return;
    }
    WorkflowFailureGroups.Read read = WorkflowFailureGroups.read(access.client(), r, null);
    dashboard.page(
        r,
        "workflow-failures.jte",
        "Workflow failures",
        new WorkflowFailuresView(
            WorkflowFailureGroups.group(read.failed()),
            read.failed().size(),
            read.read(),
            read.capped(),
            r.may(Permission.ADMIN, null),
            result(r)));
  }

  /** The dry run: how many instances of the group a retry would bring back; changes nothing. */
  private void confirm(UiRequest r) {
    String key = key(r);
    WorkflowFailureGroups.Read read = WorkflowFailureGroups.read(access.client(), r, null);
    List<InstanceInfo> members = WorkflowFailureGroups.withKey(read.failed(), key);
    List<WorkflowFailureGroup> groups = WorkflowFailureGroups.group(members);
    WorkflowFailureGroup group = groups.isEmpty() ? null : groups.get(0);
    int count = group == null ? 0 : group.retryable();
    dashboard.page(
        r,
        "workflow-retry-all.jte",
        "Retry " + count + (count == 1 ? " failed instance?" : " failed instances?"),
        new WorkflowRetryAllView(
            group, count, group == null ? 0 : group.count() - count, read.capped()));
  }

  private void retryAll(UiRequest r) {
    String key = key(r);
    int expected = expected(r.form("expected"));
    String text = r.form("note");
    String note = text == null || text.isBlank() ? null : text.strip();
    if (note != null && note.length() > 1000) {
      throw new IllegalArgumentException("note: at most 1000 characters, was " + note.length());
    }
    // The note names the operator and the group, so each instance's story says who asked and why.
    String said = r.actor() + ": retry of failure group " + key + (note == null ? "" : ": " + note);
    WorkflowFailureGroups.Read read = WorkflowFailureGroups.read(access.client(), r, null);
    List<InstanceInfo> targets = new ArrayList<>();
    for (InstanceInfo i : WorkflowFailureGroups.withKey(read.failed(), key)) {
      if (i.failure().isSystem()) {
        targets.add(i);
      }
    }
    // The oldest first, and no more than were confirmed: one that failed since stays failed.
    List<InstanceInfo> oldestFirst = new ArrayList<>(targets);
    Collections.reverse(oldestFirst);
    int left = Math.max(0, oldestFirst.size() - expected);
    int retried = 0;
    int skipped = Math.max(0, expected - oldestFirst.size()); // no longer failed since the dry run
    for (InstanceInfo i : oldestFirst.subList(0, Math.min(expected, oldestFirst.size()))) {
      try {
        access.client().retry(i.id(), said);
        retried++;
      } catch (ConflictException | InstanceNotFoundException e) {
        skipped++; // retried, ended or deleted meanwhile (or revived with its parent's retry)
      }
    }
    r.ctx()
        .redirect(
            ROOT + "?retried=" + retried + "&skipped=" + skipped + "&left=" + left + "&key=" + key,
            HttpStatus.SEE_OTHER);
  }

  /** The group's key of the path, after the role and the store were checked. */
  private String key(UiRequest r) {
    if (access == null) {
      throw new NotFoundException(
          "WORKFLOWS_NOT_ENABLED", "workflows are not enabled on this server");
    }
    r.require(Permission.ADMIN, null);
    return Fingerprint.requireKey("fingerprint", r.path("key"));
  }

  private static int expected(String value) {
    if (value == null || !value.matches("[0-9]{1,6}") || Integer.parseInt(value) < 1) {
      throw new IllegalArgumentException(
          "expected: the count the confirmation showed is required (confirm the retry from its"
              + " page), was "
              + (value == null ? "missing" : "\"" + value + "\""));
    }
    return Integer.parseInt(value);
  }

  /** The sentence of a bulk retry's outcome from the redirect's query, or null. */
  private static String result(UiRequest r) {
    String retried = r.query("retried");
    String skipped = r.query("skipped");
    String left = r.query("left");
    String key = r.query("key");
    if (!number(retried) || !number(skipped) || !number(left)) {
      return null;
    }
    String group = key != null && key.matches("[0-9a-f]{16}") ? " of group " + key : "";
    String out =
        "Retried "
            + retried
            + (retried.equals("1") ? " instance" : " instances")
            + group
            + "; "
            + skipped
            + " skipped (no longer failed, or changed state meanwhile).";
    return left.equals("0") ? out : out + " " + left + " more failed since the confirmation: left.";
  }

  private static boolean number(String value) {
    return value != null && value.matches("[0-9]{1,6}");
  }
}
