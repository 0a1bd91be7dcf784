package io.redrive.server.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.HttpStatus;
import io.redrive.deadletter.Fingerprint;
import io.redrive.server.auth.Permission;
import io.redrive.workflow.InstanceDetail;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstancePage;
import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.TimelineEntry;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowEvent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The dashboard's workflow read pages (docs/dashboard.md, "Workflows"): the instance list with
 * filters, paging and a search by id or id prefix, and the instance page. Everything is read
 * through the {@link WorkflowClient}, as the API reads it, and only instances the key's {@code
 * workflows} scope includes are shown. A server whose store keeps no workflows answers a page that
 * says so.
 */
final class WorkflowPages {
  /** Instances per list page. */
  static final int PAGE_SIZE = 50;

  /** History events per page of the instance page. */
  static final int HISTORY_PAGE = 100;

  /** Children shown on the instance page. */
  static final int CHILDREN = 100;

  /** How many instances of one failure group the list shows. */
  static final int FINGERPRINT_SHOWN = 500;

  /** How many of the newest instances a search by id prefix looks through. */
  static final int SEARCH_SCAN = 5_000;

  // Trailing text makes it not JSON: "x" <b> must show as stored, not as the string "x".
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final String ROOT = Dashboard.ROOT + "/workflows";

  private final Dashboard dashboard;
  private final WorkflowAccess access; // null: the store keeps no workflows

  WorkflowPages(Dashboard dashboard, WorkflowAccess access) {
    this.dashboard = dashboard;
    this.access = access;
  }

  void register(Dashboard.Routes routes) {
    routes.add("GET", ROOT, this::list);
    routes.add("GET", ROOT + "/{id}", this::instance);
  }

  private boolean off(UiRequest r) {
    if (access == null) {
      dashboard.page(r, "workflows-off.jte", "Workflows", "");
      return true;
    }
    return false;
  }

  private void list(UiRequest r) {
    if (off(r)) {
      return;
    }
    String search = r.query("q");
    if (search != null && !search.isBlank()) {
      search(r, search.strip());
      return;
    }
    WorkflowFilters filters = WorkflowFilters.of(r);
    String fingerprint = r.query("fingerprint");
    if (fingerprint != null) {
      withFingerprint(r, filters, Fingerprint.requireKey("fingerprint", fingerprint));
      return;
    }
    Paging paging = Paging.of(r, "after", "back");
    InstancePage page = access.client().list(filters.query(PAGE_SIZE, paging.after()));
    List<InstanceInfo> shown = new ArrayList<>();
    for (InstanceInfo i : page.instances()) {
      if (WorkflowAccess.visible(r, i.name())) {
        shown.add(i);
      }
    }
    String previous = paging.previousParams();
    dashboard.page(
        r,
        "workflows.jte",
        "Workflows",
        new WorkflowListView(
            filters,
            shown,
            null,
            null,
            page.nextCursor() == null
                ? null
                : ROOT + "?" + paging.nextParams(page.nextCursor()) + filters.params(),
            previous == null ? null : ROOT + "?" + previous + filters.params(),
            r.query("deleted"),
            null));
  }

  /**
   * The failed instances of one failure group (the failures page's "list them"): the newest {@link
   * WorkflowFailureGroups#SCAN} failed instances matching the other filters are read and those with
   * the key kept, the first {@link #FINGERPRINT_SHOWN} shown.
   */
  private void withFingerprint(UiRequest r, WorkflowFilters filters, String key) {
    WorkflowFailureGroups.Read read = WorkflowFailureGroups.read(access.client(), r, filters);
    List<InstanceInfo> matches = WorkflowFailureGroups.withKey(read.failed(), key);
    String note =
        Fmt.count(matches.size())
            + (matches.size() == 1 ? " failed instance has" : " failed instances have")
            + " this fingerprint"
            + (read.capped() ? " among the newest " + Fmt.count(read.read()) + " failed" : "")
            + (matches.size() > FINGERPRINT_SHOWN
                ? "; the newest " + FINGERPRINT_SHOWN + " are shown."
                : ".");
    dashboard.page(
        r,
        "workflows.jte",
        "Workflows",
        new WorkflowListView(
            filters,
            matches.subList(0, Math.min(FINGERPRINT_SHOWN, matches.size())),
            null,
            note,
            null,
            null,
            null,
            key));
  }

  /**
   * An exact id opens its instance; otherwise the newest {@link #SEARCH_SCAN} instances are looked
   * through for ids starting with the text (the store has no prefix index), and a single match
   * opens it.
   */
  private void search(UiRequest r, String text) {
    if (text.length() > 200 || text.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          "q: an instance id or id prefix (1 to 200 characters, no control characters)");
    }
    Optional<InstanceInfo> exact = access.client().get(text);
    if (exact.isPresent() && WorkflowAccess.visible(r, exact.get().name())) {
      r.ctx().redirect(ROOT + "/" + Fmt.seg(text), HttpStatus.SEE_OTHER);
      return;
    }
    List<InstanceInfo> matches = new ArrayList<>();
    String cursor = null;
    int seen = 0;
    do {
      InstancePage page =
          access.client().list(InstanceQuery.all(InstanceQuery.MAX_LIMIT).withCursor(cursor));
      for (InstanceInfo i : page.instances()) {
        if (i.id().startsWith(text)
            && WorkflowAccess.visible(r, i.name())
            && matches.size() < PAGE_SIZE) {
          matches.add(i);
        }
      }
      seen += page.instances().size();
      cursor = page.nextCursor();
    } while (cursor != null && seen < SEARCH_SCAN && matches.size() < PAGE_SIZE);
    if (matches.size() == 1) {
      r.ctx().redirect(ROOT + "/" + Fmt.seg(matches.get(0).id()), HttpStatus.SEE_OTHER);
      return;
    }
    String note =
        matches.isEmpty()
            ? "No instance has this id, and none of the newest "
                + Fmt.count(Math.min(seen, SEARCH_SCAN))
                + " has an id starting with it."
            : matches.size()
                + (matches.size() == PAGE_SIZE ? " or more" : "")
                + " instances match.";
    dashboard.page(
        r,
        "workflows.jte",
        "Workflows",
        new WorkflowListView(
            new WorkflowFilters(null, null, null, null, null, null),
            matches,
            text,
            note,
            null,
            null,
            null,
            null));
  }

  private void instance(UiRequest r) {
    if (off(r)) {
      return;
    }
    String id = WorkflowAccess.id(r);
    InstanceDetail detail = access.inspect(r, id);
    InstanceInfo info = detail.instance();
    WorkflowClient client = access.client();
    List<TimelineEntry> timeline = client.timeline(id);
    Paging historyPaging = Paging.of(r, "hafter", "hback");
    long after = historyCursor(historyPaging.after());
    int execution = execution(r.query("execution"), info.executionId());
    List<WorkflowEvent> history = new ArrayList<>();
    String next = null;
    long position = 0;
    for (WorkflowEvent e : client.history(id, execution)) {
      position++;
      if (position <= after || "TURN_STARTED".equals(e.kind())) {
        continue; // turn markers are in the timeline; the history shows what the turns decided
      }
      if (history.size() == HISTORY_PAGE) {
        next = Long.toString(position - 1);
        break;
      }
      history.add(e);
    }
    InstancePage kids = client.list(InstanceQuery.all(CHILDREN).withParentId(id));
    List<InstanceInfo> children = new ArrayList<>();
    for (InstanceInfo c : kids.instances()) {
      if (WorkflowAccess.visible(r, c.name())) {
        children.add(c);
      }
    }
    Set<String> messages = new LinkedHashSet<>();
    for (TimelineEntry e : timeline) {
      if (e.messageId() != null) {
        messages.add(e.messageId());
      }
    }
    dashboard.page(
        r,
        "workflow.jte",
        "Workflow " + info.id(),
        new WorkflowView(
            detail,
            pretty(info.input()),
            pretty(info.output()),
            pretty(info.customStatus()),
            timeline,
            history,
            execution,
            historyHref(id, execution, next == null ? null : historyPaging.nextParams(next)),
            historyHref(id, execution, historyPaging.previousParams()),
            after,
            children,
            kids.nextCursor() != null,
            List.copyOf(messages),
            r.may(Permission.ADMIN, null),
            r.may(Permission.PRODUCE, null)));
  }

  /** The execution whose history is shown: the current one unless the page asks for another. */
  private static int execution(String value, int current) {
    if (value == null || value.isBlank()) {
      return current;
    }
    if (!value.matches("[0-9]{1,9}")
        || Integer.parseInt(value) < 1
        || Integer.parseInt(value) > current) {
      throw new IllegalArgumentException(
          "execution: a number from 1 to " + current + ", was \"" + value + "\"");
    }
    return Integer.parseInt(value);
  }

  /** The link to a page of {@code id}'s history with {@code params}, or null without them. */
  private static String historyHref(String id, int execution, String params) {
    if (params == null) {
      return null;
    }
    return ROOT
        + "/"
        + Fmt.seg(id)
        + "?execution="
        + execution
        + (params.isEmpty() ? "" : "&")
        + params;
  }

  private static long historyCursor(String value) {
    if (value == null || value.isBlank()) {
      return 0;
    }
    if (!value.matches("[0-9]{1,9}")) {
      throw new IllegalArgumentException("hafter: not a cursor this page gave, was " + value);
    }
    return Long.parseLong(value);
  }

  /** Stored JSON pretty-printed; text that is not JSON as stored; null as null. */
  static String pretty(String json) {
    if (json == null) {
      return null;
    }
    try {
      JsonNode tree = JSON.readTree(json);
      return tree == null ? json : JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
    } catch (java.io.IOException | RuntimeException e) {
      return json;
    }
  }
}
