package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;
import static io.redrive.server.http.WorkflowQueryValues.bool;
import static io.redrive.server.http.WorkflowQueryValues.instant;
import static io.redrive.server.http.WorkflowQueryValues.limit;
import static io.redrive.server.http.WorkflowQueryValues.name;
import static io.redrive.server.http.WorkflowQueryValues.status;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.Redrive;
import io.redrive.server.auth.AuthException;
import io.redrive.server.auth.Permission;
import io.redrive.time.DurationText;
import io.redrive.workflow.InstanceDetail;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstancePage;
import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.StartRequest.IfExists;
import io.redrive.workflow.StartResult;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The workflow instance endpoints of docs/api.md ("Workflows"): start, list and get (with a
 * long-poll wait), over the {@link WorkflowClient} of the engine's store (and nothing else of it).
 * {@link WorkflowHistoryEndpoints} reads what an instance did, {@link WorkflowSteeringEndpoints}
 * acts on it; all three see instances through {@link VisibleInstances}.
 */
final class WorkflowEndpoints implements AutoCloseable {
  /** Ids a caller may choose at start; {@code ::sub::} is kept for generated child ids. */
  static final Pattern INSTANCE_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,200}");

  private final Redrive redrive;
  private final WorkflowClient client;
  private final Duration maxWait;
  private final InstanceWaiter waiter;
  private final VisibleInstances instances;

  WorkflowEndpoints(Redrive redrive, WorkflowClient client, Duration maxWait) {
    this.redrive = redrive;
    this.client = client;
    this.maxWait = maxWait;
    this.waiter = new InstanceWaiter(client);
    this.instances = new VisibleInstances(client);
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
            "/v1/workflow-nodes",
            "The live workflow nodes: what each runs, when it started, when it was last seen",
            Permission.VIEW,
            null,
            200,
            WorkflowResponses.NodeList.class,
            this::nodes));
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
            ifExists,
            RequestTrace.of(ex.context()));
    StartResult started = client.start(request);
    ex.reply(
        started.created() ? 201 : 200,
        WorkflowViews.instance(
            instances.inspect(ex, started.instanceId()), started.created(), started.warning()));
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

  /** The live nodes; a key scoped to some workflows sees only those orchestrations. */
  private void nodes(Exchange ex) {
    List<WorkflowResponses.Node> out = new ArrayList<>();
    for (WorkflowNode n : client.nodes()) {
      Map<String, List<String>> orchestrations = new LinkedHashMap<>();
      n.orchestrations()
          .forEach(
              (name, versions) -> {
                if (ex.mayAccessWorkflow(name)) {
                  orchestrations.put(name, versions);
                }
              });
      out.add(
          new WorkflowResponses.Node(
              n.nodeId(),
              n.buildId(),
              orchestrations,
              n.activities(),
              n.orchestrationConcurrency(),
              n.activityConcurrency(),
              n.startedAt(),
              n.lastSeenAt()));
    }
    ex.reply(new WorkflowResponses.NodeList(out));
  }

  private void get(Exchange ex) throws Exception {
    String id = VisibleInstances.id(ex);
    String waitText = ex.query("wait");
    Duration wait = waitText == null ? null : DurationText.parse("wait", waitText);
    if (wait != null && wait.compareTo(maxWait) > 0) {
      throw new IllegalArgumentException(
          "wait: at most " + DurationText.format(maxWait) + " (maxLeaseWait), was " + waitText);
    }
    InstanceDetail detail = instances.inspect(ex, id);
    if (wait != null && !detail.instance().status().terminal()) {
      waiter.awaitEnd(id, wait);
      detail = instances.inspect(ex, id); // deleted meanwhile: not found
    }
    ex.reply(WorkflowViews.instance(detail, null));
  }
}
