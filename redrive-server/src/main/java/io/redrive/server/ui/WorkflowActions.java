package io.redrive.server.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.HttpStatus;
import io.redrive.error.ConflictException;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.WorkflowTrees;
import io.redrive.workflow.InstanceInfo;
import java.util.Set;

/**
 * The operator actions on a workflow instance: retry (a failed one), terminate (a running one) and
 * delete (an ended root with its tree), each behind a confirmation page, and raise an event. Every
 * action is authorized again on the server as the API authorizes it (ADMIN; PRODUCE to raise) and
 * sees only instances in the key's {@code workflows} scope, whatever the page showed.
 */
final class WorkflowActions {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> CONFIRMED = Set.of("retry", "terminate", "delete");
  private static final String ROOT = Dashboard.ROOT + "/workflows";

  private final Dashboard dashboard;
  private final WorkflowAccess access;

  WorkflowActions(Dashboard dashboard, WorkflowAccess access) {
    this.dashboard = dashboard;
    this.access = access;
  }

  void register(Dashboard.Routes routes) {
    routes.add("GET", ROOT + "/{id}/confirm", this::confirm);
    routes.add("POST", ROOT + "/{id}/retry", this::retry);
    routes.add("POST", ROOT + "/{id}/terminate", this::terminate);
    routes.add("POST", ROOT + "/{id}/delete", this::delete);
    routes.add("POST", ROOT + "/{id}/events", this::raise);
  }

  private static String op(String value) {
    if (value == null || !CONFIRMED.contains(value)) {
      throw new IllegalArgumentException(
          "op: must be retry, terminate or delete, was "
              + (value == null ? "missing" : "\"" + value + "\""));
    }
    return value;
  }

  /** The visible instance of the path, after the role was checked (a viewer hears 403 first). */
  private InstanceInfo target(UiRequest r, Permission permission) {
    if (access == null) {
      throw new io.redrive.error.NotFoundException(
          "WORKFLOWS_NOT_ENABLED", "workflows are not enabled on this server");
    }
    String id = WorkflowAccess.id(r);
    r.require(permission, null);
    return access.find(r, id);
  }

  /** The confirmation page: what the action will do to which instance; changes nothing. */
  private void confirm(UiRequest r) {
    String op = op(r.query("op"));
    InstanceInfo i = target(r, Permission.ADMIN);
    dashboard.page(
        r,
        "workflow-confirm.jte",
        WorkflowConfirmView.verbOf(op) + " " + i.id() + "?",
        new WorkflowConfirmView(op, i));
  }

  private void retry(UiRequest r) {
    InstanceInfo i = target(r, Permission.ADMIN);
    access.client().retry(i.id(), note("note", r.form("note"), r));
    back(r, i.id());
  }

  private void terminate(UiRequest r) {
    InstanceInfo i = target(r, Permission.ADMIN);
    if (i.status().terminal()) {
      throw new ConflictException(
          "INSTANCE_NOT_RUNNING",
          "workflow instance \"" + i.id() + "\" has ended; nothing to terminate");
    }
    access.client().terminate(i.id(), note("reason", r.form("reason"), r));
    back(r, i.id());
  }

  private void delete(UiRequest r) {
    InstanceInfo i = target(r, Permission.ADMIN);
    if (i.parentId() == null) {
      checkTreeInScope(r, i.id());
    }
    access.client().delete(i.id(), false);
    r.ctx().redirect(ROOT + "?deleted=" + Fmt.q(i.id()), HttpStatus.SEE_OTHER);
  }

  private void raise(UiRequest r) throws Exception {
    InstanceInfo i = target(r, Permission.PRODUCE);
    String name = r.form("name");
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: is required");
    }
    maxLength("name", name, 200);
    String dedupeKey = r.form("dedupeKey");
    if (dedupeKey != null && dedupeKey.isBlank()) {
      dedupeKey = null;
    }
    maxLength("dedupeKey", dedupeKey, 200);
    String text = r.form("payload");
    JsonNode payload = null;
    if (text != null && !text.isBlank()) {
      try {
        payload = JSON.readTree(text);
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException(
            "payload: not JSON (write text as \"quoted\", or leave it empty for none)");
      }
    }
    access.client().raiseEvent(i.id(), name, payload, dedupeKey);
    back(r, i.id());
  }

  /** A reason or note, with the actor first so the instance's story says who asked. */
  private static String note(String field, String text, UiRequest r) {
    String t = text == null || text.isBlank() ? null : text.strip();
    maxLength(field, t, 1000);
    return t == null ? r.actor() : r.actor() + ": " + t;
  }

  private static void back(UiRequest r, String id) {
    r.ctx().redirect(ROOT + "/" + Fmt.seg(id), HttpStatus.SEE_OTHER);
  }

  /** A root's delete takes its whole tree: the key must see every instance of it (as the API). */
  private void checkTreeInScope(UiRequest r, String rootId) {
    WorkflowTrees.requireInScope(access.client(), rootId, name -> WorkflowAccess.visible(r, name));
  }

  private static void maxLength(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw new IllegalArgumentException(
          field + ": at most " + max + " characters, was " + value.length());
    }
  }
}
