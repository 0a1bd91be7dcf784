package io.redrive.server.http;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.Redrive;
import io.redrive.error.ConflictException;
import io.redrive.error.InstanceNotFoundException;
import io.redrive.server.auth.AuthException;
import io.redrive.server.auth.Permission;
import io.redrive.time.DurationText;
import io.redrive.workflow.DeleteResult;
import io.redrive.workflow.InstanceDetail;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstancePage;
import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.StartRequest.IfExists;
import io.redrive.workflow.StartResult;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The workflow endpoints of docs/api.md ("Workflows"): start, list, get (with a long-poll wait),
 * history, timeline, children, raise an event, terminate, retry and delete, over the {@link
 * WorkflowClient} of the engine's store (and nothing else of it). A key limited to some
 * orchestrations ({@code workflows} patterns) sees the others as missing, as a queue-scoped key
 * sees other queues' messages.
 */
final class WorkflowEndpoints implements AutoCloseable {
  /** Ids a caller may choose at start; {@code ::sub::} is kept for generated child ids. */
  static final Pattern INSTANCE_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,200}");

  /** Most events one history page holds. */
  static final int MAX_EVENTS = 1000;

  private final Redrive redrive;
  private final WorkflowClient client;
  private final Duration maxWait;
  private final InstanceWaiter waiter;

  WorkflowEndpoints(Redrive redrive, WorkflowClient client, Duration maxWait) {
    this.redrive = redrive;
    this.client = client;
    this.maxWait = maxWait;
    this.waiter = new InstanceWaiter(client);
  }

  /** Releases the calls waiting for an instance to end and stops listening to the store. */
  @Override
  public void close() {
    waiter.close();
  }

  /**
   * {@code POST /v1/workflows}.
   *
   * @param name the orchestration to start
   * @param version the version to pin, or null for the default the running nodes resolve
   * @param id the instance id, or null for a new one
   * @param input the input (any JSON)
   * @param delay when to take the first turn, from now
   * @param ifExists {@code fail} (default: 409 INSTANCE_EXISTS) or {@code return} the existing one
   */
  record WorkflowStartBody(
      @ApiField(required = true, maxLength = 200) String name,
      @ApiField(maxLength = 200) String version,
      @ApiField(pattern = "^[A-Za-z0-9._:@-]{1,200}$") String id,
      @ApiField(nullable = true) RawJson input,
      @ApiField(format = "duration") String delay,
      @ApiField(values = {"fail", "return"}) String ifExists) {}

  /** {@code POST /v1/workflows/{id}/events}. */
  record WorkflowEventBody(
      @ApiField(required = true, maxLength = 200) String name,
      @ApiField(nullable = true) RawJson payload,
      @ApiField(maxLength = 200) String dedupeKey) {}

  /** {@code POST /v1/workflows/{id}/terminate}. */
  record WorkflowTerminateBody(@ApiField(maxLength = 1000) String reason) {}

  /** {@code POST /v1/workflows/{id}/retry}. */
  record WorkflowRetryBody(@ApiField(maxLength = 1000) String note) {}

  List<Route> routes() {
    return List.of(
        Route.of(
                POST,
                "/v1/workflows",
                "Start an orchestration instance",
                Permission.PRODUCE,
                WorkflowStartBody.class,
                201,
                WorkflowResponses.Instance.class,
                this::start)
            .alsoAnswers(200, WorkflowResponses.Instance.class),
        Route.of(
                GET,
                "/v1/workflows",
                "List instances, newest first, with filters",
                Permission.VIEW,
                null,
                200,
                WorkflowResponses.InstanceList.class,
                this::list)
            .withQueryParams(
                "status", "name", "version", "parent", "root", "roots", "since", "before", "after",
                "limit"),
        Route.of(
                GET,
                "/v1/workflows/{id}",
                "An instance: status, failure, what it waits on, what is pending",
                Permission.VIEW,
                null,
                200,
                WorkflowResponses.Instance.class,
                this::get)
            .withQueryParams("wait"),
        Route.of(
                GET,
                "/v1/workflows/{id}/history",
                "An instance's history events, oldest first, paged",
                Permission.VIEW,
                null,
                200,
                WorkflowResponses.EventPage.class,
                this::history)
            .withQueryParams("execution", "turns", "after", "limit"),
        Route.of(
            GET,
            "/v1/workflows/{id}/timeline",
            "History interleaved with every uncommitted turn try and every activity delivery",
            Permission.VIEW,
            null,
            200,
            WorkflowResponses.Timeline.class,
            this::timeline),
        Route.of(
            GET,
            "/v1/workflows/{id}/children",
            "An instance's direct child instances",
            Permission.VIEW,
            null,
            200,
            WorkflowResponses.ChildList.class,
            this::children),
        Route.of(
            POST,
            "/v1/workflows/{id}/events",
            "Raise an event for an instance (buffered until it waits for it)",
            Permission.PRODUCE,
            WorkflowEventBody.class,
            200,
            WorkflowResponses.Raised.class,
            this::raise),
        Route.of(
                POST,
                "/v1/workflows/{id}/terminate",
                "Ask an instance (and its children) to end as TERMINATED at its next turn",
                Permission.ADMIN,
                WorkflowTerminateBody.class,
                200,
                WorkflowResponses.Instance.class,
                this::terminate)
            .optionalBody(),
        Route.of(
                POST,
                "/v1/workflows/{id}/retry",
                "Bring back an instance that failed by a system failure (poison, nondeterminism)",
                Permission.ADMIN,
                WorkflowRetryBody.class,
                200,
                WorkflowResponses.Instance.class,
                this::retry)
            .optionalBody(),
        Route.of(
                DELETE,
                "/v1/workflows/{id}",
                "Delete a root instance with its whole tree",
                Permission.ADMIN,
                null,
                200,
                WorkflowResponses.Deleted.class,
                this::delete)
            .withQueryParams("force"));
  }

  private void start(Exchange ex) throws Exception {
    WorkflowStartBody body = ex.body(WorkflowStartBody.class);
    if (body.name() == null) {
      throw new IllegalArgumentException("name: is required");
    }
    if (body.id() != null) {
      if (!INSTANCE_ID.matcher(body.id()).matches()) {
        throw new IllegalArgumentException(
            "id: 1 to 200 characters of A-Z, a-z, 0-9 and . _ : @ -, was \"" + body.id() + "\"");
      }
      if (body.id().contains("::sub::")) {
        throw new IllegalArgumentException("id: \"::sub::\" is kept for generated child ids");
      }
    }
    IfExists ifExists = ifExists(body.ifExists());
    Duration delay = RequestBodies.optionalDuration("delay", body.delay());
    if (!ex.mayAccessWorkflow(body.name())) {
      throw AuthException.forbidden(
          "this key may not start orchestration \"" + body.name() + "\" (workflows scope)");
    }
    String input = RawJson.textOrNull(body.input());
    StartRequest request =
        new StartRequest(
            body.name(),
            body.version(),
            body.id(),
            input == null
                ? null
                : ex.json().read(input.getBytes(StandardCharsets.UTF_8), JsonNode.class),
            delay == null ? null : redrive.clock().instant().plus(delay),
            ifExists);
    StartResult started = client.start(request);
    ex.reply(
        started.created() ? 201 : 200,
        WorkflowViews.instance(inspect(ex, started.instanceId()), started.created()));
  }

  private static IfExists ifExists(String text) {
    if (text == null || text.equals("fail")) {
      return IfExists.FAIL;
    }
    if (text.equals("return")) {
      return IfExists.RETURN_EXISTING;
    }
    throw new IllegalArgumentException("ifExists: \"fail\" or \"return\", was \"" + text + "\"");
  }

  private void list(Exchange ex) {
    Set<InstanceStatus> statuses = EnumSet.noneOf(InstanceStatus.class);
    for (String s : ex.queryAll("status")) {
      for (String part : s.split(",")) {
        statuses.add(status(part.trim()));
      }
    }
    int limit = limit(ex.query("limit"), 100, 1000);
    String roots = ex.query("roots");
    InstanceQuery query =
        new InstanceQuery(
            statuses,
            name("name", ex.query("name")),
            name("root", ex.query("root")),
            limit,
            ex.query("after"),
            name("version", ex.query("version")),
            name("parent", ex.query("parent")),
            bool("roots", roots),
            instant("since", ex.query("since")),
            instant("before", ex.query("before")));
    InstancePage page = client.list(query);
    List<WorkflowResponses.InstanceSummary> out = new ArrayList<>();
    for (InstanceInfo r : page.instances()) {
      if (ex.mayAccessWorkflow(r.name())) {
        out.add(WorkflowViews.summary(r));
      }
    }
    ex.reply(new WorkflowResponses.InstanceList(out, page.nextCursor()));
  }

  private void get(Exchange ex) throws Exception {
    String id = id(ex);
    String waitText = ex.query("wait");
    Duration wait = waitText == null ? null : DurationText.parse("wait", waitText);
    if (wait != null && wait.compareTo(maxWait) > 0) {
      throw new IllegalArgumentException(
          "wait: at most " + DurationText.format(maxWait) + " (maxLeaseWait), was " + waitText);
    }
    InstanceDetail detail = inspect(ex, id);
    if (wait != null && !detail.instance().status().terminal()) {
      waiter.awaitEnd(id, wait);
      detail = inspect(ex, id); // deleted meanwhile: not found
    }
    ex.reply(WorkflowViews.instance(detail, null));
  }

  private void history(Exchange ex) {
    String id = id(ex);
    InstanceInfo row = find(ex, id);
    String execution = ex.query("execution");
    Integer executionId;
    if (execution == null) {
      executionId = row.executionId();
    } else if (execution.equals("all")) {
      executionId = null;
    } else {
      executionId = (int) limit("execution", execution, 1, Integer.MAX_VALUE);
    }
    boolean turns = bool("turns", ex.query("turns"));
    int limit = limit(ex.query("limit"), MAX_EVENTS, MAX_EVENTS);
    long after = ex.query("after") == null ? 0 : cursor(ex.query("after"));
    List<WorkflowResponses.Event> events = new ArrayList<>();
    String next = null;
    long position = 0;
    for (WorkflowEvent e : client.history(id, executionId)) {
      position++;
      if (position <= after || (!turns && "TURN_STARTED".equals(e.kind()))) {
        continue;
      }
      if (events.size() == limit) {
        next = Long.toString(position - 1);
        break;
      }
      events.add(WorkflowViews.event(e));
    }
    ex.reply(new WorkflowResponses.EventPage(events, next));
  }

  private void timeline(Exchange ex) {
    String id = id(ex);
    find(ex, id);
    ex.reply(
        new WorkflowResponses.Timeline(
            client.timeline(id).stream().map(WorkflowViews::entry).toList()));
  }

  private void children(Exchange ex) {
    String id = id(ex);
    find(ex, id);
    List<WorkflowResponses.InstanceSummary> out = new ArrayList<>();
    String cursor = null;
    do {
      InstancePage page = client.list(InstanceQuery.all(1000).withParentId(id).withCursor(cursor));
      for (InstanceInfo r : page.instances()) {
        if (ex.mayAccessWorkflow(r.name())) {
          out.add(WorkflowViews.summary(r));
        }
      }
      cursor = page.nextCursor();
    } while (cursor != null);
    ex.reply(new WorkflowResponses.ChildList(out));
  }

  private void raise(Exchange ex) throws Exception {
    String id = id(ex);
    WorkflowEventBody body = ex.body(WorkflowEventBody.class);
    if (body.name() == null || body.name().isBlank()) {
      throw new IllegalArgumentException("name: is required");
    }
    maxLength("name", body.name(), 200);
    maxLength("dedupeKey", body.dedupeKey(), 200);
    find(ex, id);
    String payload = RawJson.textOrNull(body.payload());
    boolean raised =
        client.raiseEvent(
            id,
            body.name(),
            payload == null
                ? null
                : ex.json().read(payload.getBytes(StandardCharsets.UTF_8), JsonNode.class),
            body.dedupeKey());
    ex.reply(new WorkflowResponses.Raised(!raised));
  }

  private void terminate(Exchange ex) throws Exception {
    String id = id(ex);
    WorkflowTerminateBody body = ex.body(WorkflowTerminateBody.class);
    maxLength("reason", body == null ? null : body.reason(), 1000);
    if (find(ex, id).status().terminal()) {
      throw new ConflictException(
          "INSTANCE_NOT_RUNNING",
          "workflow instance \"" + id + "\" has ended; nothing to terminate");
    }
    client.terminate(id, body == null ? null : body.reason());
    ex.reply(WorkflowViews.instance(inspect(ex, id), null));
  }

  private void retry(Exchange ex) throws Exception {
    String id = id(ex);
    WorkflowRetryBody body = ex.body(WorkflowRetryBody.class);
    maxLength("note", body == null ? null : body.note(), 1000);
    find(ex, id);
    client.retry(id, body == null ? null : body.note());
    ex.reply(WorkflowViews.instance(inspect(ex, id), null));
  }

  private void delete(Exchange ex) {
    String id = id(ex);
    InstanceInfo row = find(ex, id);
    if (row.parentId() == null) {
      // a whole tree goes: the key must see every instance of it
      checkTreeInScope(ex, id);
    }
    DeleteResult r = client.delete(id, bool("force", ex.query("force")));
    ex.reply(new WorkflowResponses.Deleted(r.instances(), r.messages()));
  }

  private void checkTreeInScope(Exchange ex, String rootId) {
    String cursor = null;
    do {
      InstancePage page =
          client.list(InstanceQuery.all(1000).withRootId(rootId).withCursor(cursor));
      for (InstanceInfo r : page.instances()) {
        if (!ex.mayAccessWorkflow(r.name())) {
          throw AuthException.forbidden(
              "this key may not delete the tree of \""
                  + rootId
                  + "\": it holds instances outside its workflows scope");
        }
      }
      cursor = page.nextCursor();
    } while (cursor != null);
  }

  /** The instance of the path, or INSTANCE_NOT_FOUND also when the key's scope hides it. */
  private InstanceInfo find(Exchange ex, String id) {
    InstanceInfo row = client.get(id).orElseThrow(() -> new InstanceNotFoundException(id));
    if (!ex.mayAccessWorkflow(row.name())) {
      throw new InstanceNotFoundException(id);
    }
    return row;
  }

  /** As {@link #find}, with what the instance waits on and has outstanding. */
  private InstanceDetail inspect(Exchange ex, String id) {
    InstanceDetail detail = client.inspect(id).orElseThrow(() -> new InstanceNotFoundException(id));
    if (!ex.mayAccessWorkflow(detail.instance().name())) {
      throw new InstanceNotFoundException(id);
    }
    return detail;
  }

  private static String id(Exchange ex) {
    String id = ex.path("id");
    if (id.isBlank() || id.length() > 200 || id.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          "id: not an instance id (1 to 200 characters, no control characters)");
    }
    return id;
  }

  private static InstanceStatus status(String text) {
    for (InstanceStatus s : InstanceStatus.values()) {
      if (s.name().equalsIgnoreCase(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "status: unknown status \""
            + text
            + "\" (use pending, running, completed, failed or terminated)");
  }

  /** The documented bound of a text field, enforced: the document and the server agree. */
  private static void maxLength(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw new IllegalArgumentException(
          field + ": at most " + max + " characters, was " + value.length());
    }
  }

  private static String name(String field, String value) {
    if (value != null && (value.isBlank() || value.length() > 200)) {
      throw new IllegalArgumentException(field + ": 1 to 200 characters, was \"" + value + "\"");
    }
    return value;
  }

  private static boolean bool(String field, String value) {
    if (value == null) {
      return false;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(field + ": true or false, was \"" + value + "\"");
    };
  }

  private static Instant instant(String field, String value) {
    if (value == null) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          field + ": an ISO-8601 instant such as 2030-01-01T00:00:00Z, was \"" + value + "\"");
    }
  }

  private static int limit(String value, int absent, int max) {
    return value == null ? absent : (int) limit("limit", value, 1, max);
  }

  private static long limit(String field, String value, long min, long max) {
    long n;
    try {
      n = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + ": a whole number, was \"" + value + "\"");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(
          field + ": must be between " + min + " and " + max + ", was " + n);
    }
    return n;
  }

  private static long cursor(String value) {
    if (!value.matches("[0-9]{1,9}")) {
      throw new IllegalArgumentException("after: not a cursor this server gave, was " + value);
    }
    return Long.parseLong(value);
  }
}
