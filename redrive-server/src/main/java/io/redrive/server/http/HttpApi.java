package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.redrive.Redrive;
import io.redrive.server.PortInUseException;
import io.redrive.server.auth.Authorizer;
import io.redrive.server.auth.WrongKeyThrottle;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.ui.Dashboard;
import io.redrive.server.ui.UiFailure;
import io.redrive.workflow.WorkflowClient;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP JSON API of docs/api.md over one engine, served by Javalin (Jetty). Every endpoint is a
 * {@link Route} in one table, which also drives authorization and {@code /openapi.json}.
 * Thread-safe.
 */
public final class HttpApi implements AutoCloseable {
  /** How long {@link #stop()} waits for requests in flight. */
  public static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(HttpApi.class);

  private final Redrive redrive;
  private final Javalin app;
  private final LeaseWaiter waiter;
  private final ReadinessProbe readiness;
  private final ServerMetrics metrics;
  private final WorkflowEndpoints workflows;
  private final List<Route> routes;
  private final Dashboard dashboard;
  private final String openApi;
  private final Object stopLock = new Object();
  private boolean stopped;

  private HttpApi(
      Redrive redrive,
      Authorizer authorizer,
      ServerConfig config,
      PrometheusMeterRegistry registry) {
    this.redrive = redrive;
    JsonCodec json = new JsonCodec();
    Views views = new Views(json);
    ErrorMapper errors = new ErrorMapper(json);
    this.waiter = new LeaseWaiter(redrive, 4);
    this.readiness = new ReadinessProbe(redrive::ping, ReadinessProbe.BOUND);
    this.metrics = new ServerMetrics(redrive, registry);
    List<Route> table = new ArrayList<>(serviceRoutes());
    table.addAll(new QueueEndpoints(redrive, views).routes());
    table.addAll(new MessageEndpoints(redrive, views).routes());
    table.addAll(new MessageActionEndpoints(redrive, views).routes());
    table.addAll(new LineageEndpoints(redrive).routes());
    table.addAll(new WorkerEndpoints(redrive).routes());
    table.addAll(new QueueWorkerEndpoints(redrive).routes());
    table.addAll(new DeadLetterEndpoints(redrive).routes());
    table.addAll(new DeadRetryEndpoints(redrive).routes());
    table.addAll(new DeadGroupEndpoints(redrive).routes());
    table.addAll(new CircuitEndpoints(redrive).routes());
    table.addAll(new ScheduleEndpoints(redrive).routes());
    table.addAll(new ObjectiveEndpoints(redrive).routes());
    table.add(new WhatIfEndpoint(redrive).route());
    table.addAll(new LeaseEndpoints(redrive, views, waiter, config.maxLeaseWait()).routes());
    table.add(new SettleEndpoint(redrive).route());
    if (WorkflowClient.supports(redrive)) {
      WorkflowClient client = WorkflowClient.on(redrive);
      this.workflows = new WorkflowEndpoints(redrive, client, config.maxLeaseWait());
      table.addAll(workflows.routes());
      table.addAll(new WorkflowHistoryEndpoints(client).routes());
      table.addAll(new WorkflowSteeringEndpoints(client).routes());
    } else {
      this.workflows = null;
    }
    this.routes = List.copyOf(table);
    this.openApi = json.write(OpenApi.document(routes, version()));
    WrongKeyThrottle throttle = new WrongKeyThrottle(redrive.clock());
    Exchange.Shared shared =
        new Exchange.Shared(json, authorizer, config.maxRequestBytes(), throttle);
    long asyncTimeout = config.maxLeaseWait().plus(Duration.ofSeconds(30)).toMillis();
    this.app =
        Javalin.create(
            cfg -> {
              cfg.showJavalinBanner = false;
              cfg.startupWatcherEnabled = false;
              cfg.http.maxRequestSize = config.maxRequestBytes();
              cfg.http.asyncTimeout = asyncTimeout;
              cfg.http.prefer405over404 = true;
              cfg.router.ignoreTrailingSlashes = true;
              cfg.jetty.modifyServer(
                  server -> {
                    server.setStopTimeout(STOP_TIMEOUT.toMillis());
                    server.setHandler(new StatisticsHandler());
                    server.setErrorHandler(new JsonErrorHandler(json));
                  });
              cfg.requestLogger.http(
                  (ctx, millis) ->
                      metrics.recordRequest(
                          routeOf(ctx), ctx.method().name(), ctx.statusCode(), millis));
            });
    RequestGuard guard = new RequestGuard(config.bind(), config.allowedHosts());
    app.before(guard::check);
    for (Route r : routes) {
      app.addHttpHandler(
          r.method(),
          r.path(),
          ctx -> {
            Exchange ex = new Exchange(ctx, r, shared);
            ex.authorizeRoute();
            guard.checkMediaType(ctx);
            ex.checkQuery();
            ex.checkNoBody();
            r.action().handle(ex);
          });
    }
    this.dashboard =
        Dashboard.install(
            app,
            redrive,
            authorizer,
            throttle,
            t -> {
              ErrorMapper.ApiError e = errors.toError(t, "dashboard");
              return new UiFailure(e.status(), e.code(), e.message());
            });
    app.exception(HttpResponseException.class, errors::handle);
    app.exception(Exception.class, errors::handle);
    app.error(
        404,
        ctx -> {
          if (Dashboard.owns(ctx.path())) {
            // A dashboard page that answered 404 itself (a missing queue, message or instance)
            // keeps its page; only a path no route serves gets the dashboard's not-found page.
            if (ctx.res().getContentType() == null
                || !ctx.res().getContentType().startsWith("text/html")) {
              dashboard.notFound(ctx);
            }
            return;
          }
          if (ctx.result() == null || !ctx.result().startsWith("{\"error\"")) {
            errors.write(
                ctx,
                new ErrorMapper.ApiError(
                    404, "NOT_FOUND", "no such endpoint: " + ctx.method() + " " + ctx.path()));
          }
        });
    app.error(
        405,
        ctx -> {
          String allow = allowedMethods(ctx.path());
          if (!allow.isEmpty()) {
            ctx.header("Allow", allow);
          }
          if (ctx.result() == null || !ctx.result().startsWith("{\"error\"")) {
            errors.write(
                ctx,
                new ErrorMapper.ApiError(
                    405,
                    "METHOD_NOT_ALLOWED",
                    "method not allowed: " + ctx.method() + " " + ctx.path()));
          }
        });
  }

  /**
   * Starts serving on {@code config.bind()}:{@code config.port()} (0 picks a free port). The caller
   * keeps ownership of {@code redrive} and its store.
   */
  public static HttpApi start(Redrive redrive, Authorizer authorizer, ServerConfig config) {
    return start(redrive, authorizer, config, ServerMetrics.newRegistry());
  }

  /**
   * Starts serving as {@link #start(Redrive, Authorizer, ServerConfig)}, with {@code /metrics} from
   * {@code registry}: give the registry the engine was built with ({@code
   * Redrive.builder(store).meterRegistry(registry)}) so its message meters show there. Closed by
   * {@link #stop()}.
   */
  public static HttpApi start(
      Redrive redrive,
      Authorizer authorizer,
      ServerConfig config,
      PrometheusMeterRegistry registry) {
    if (config.port() != 0) {
      requireFreePort(config.bind(), config.port());
    }
    HttpApi api = new HttpApi(redrive, authorizer, config, registry);
    try {
      api.app.start(config.bind(), config.port());
    } catch (RuntimeException e) {
      api.waiter.close();
      api.closeWorkflows();
      api.dashboard.close();
      api.metrics.close();
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof BindException) {
          throw new PortInUseException(config.bind(), config.port(), e);
        }
      }
      throw e;
    }
    return api;
  }

  /**
   * Fails with {@link PortInUseException} when the port is taken: Jetty reports it as an unrelated
   * "STOPPED" error after logging the cause, so look first.
   */
  public static void requireFreePort(String bind, int port) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(bind, port));
    } catch (BindException e) {
      throw new PortInUseException(bind, port, e);
    } catch (IOException e) {
      // not a taken port (an unknown address, say): Jetty reports it when it tries
    }
  }

  /** The port the server listens on. */
  public int port() {
    return app.port();
  }

  /** Every route as {@code METHOD path}, in table order. */
  public List<String> routes() {
    return routes.stream().map(r -> r.method().name() + " " + r.path()).toList();
  }

  /**
   * Stops gracefully: waiting lease calls return (empty) at once, new connections are refused, and
   * requests in flight get up to {@link #STOP_TIMEOUT} to finish. Idempotent.
   */
  public void stop() {
    synchronized (stopLock) {
      if (stopped) {
        return;
      }
      stopped = true;
    }
    waiter.close();
    closeWorkflows();
    try {
      app.stop();
    } catch (RuntimeException e) {
      log.warn("stopping the HTTP server: {}", e.getMessage());
    }
    metrics.close();
    dashboard.close();
  }

  @Override
  public void close() {
    stop();
  }

  private void closeWorkflows() {
    if (workflows != null) {
      workflows.close();
    }
  }

  private List<Route> serviceRoutes() {
    return List.of(
        Route.of(
            GET,
            "/health",
            "Liveness: 200 while the process runs",
            null,
            null,
            200,
            Responses.Status.class,
            ex -> ex.reply(new Responses.Status("ok"))),
        Route.of(
                GET,
                "/ready",
                "Readiness: 200 when the store answers, else 503",
                null,
                null,
                200,
                QueueWorkerEndpoints.ReadyView.class,
                this::ready)
            .alsoAnswers(503, Responses.Unavailable.class),
        Route.of(
            GET,
            "/metrics",
            "Prometheus metrics (text format)",
            null,
            null,
            200,
            Responses.PrometheusText.class,
            this::metrics),
        Route.of(
            GET,
            "/openapi.json",
            "This OpenAPI document",
            null,
            null,
            200,
            Responses.OpenApiDocument.class,
            ex -> ex.context().status(200).contentType("application/json").result(openApi)));
  }

  private void ready(Exchange ex) {
    String problem = readiness.problem();
    if (problem == null) {
      ex.reply(
          200,
          new QueueWorkerEndpoints.ReadyView(
              "ready",
              redrive.unservedTypes().stream().map(QueueWorkerEndpoints::unserved).toList()));
    } else {
      // Like every other 503 about the store: the client learns when to ask again.
      ex.context()
          .header(
              "Retry-After",
              ErrorMapper.retryAfter(new ErrorMapper.ApiError(503, "STORE_UNAVAILABLE", problem)));
      ex.reply(503, new Responses.Unavailable("unavailable", problem));
    }
  }

  private void metrics(Exchange ex) {
    ex.context()
        .status(200)
        .contentType("text/plain; version=0.0.4; charset=utf-8")
        .result(metrics.scrape());
  }

  /** The methods of the routes matching {@code path}, as an {@code Allow} header value. */
  String allowedMethods(String path) {
    String[] parts = trimSlash(path).split("/", -1);
    Set<String> methods = new TreeSet<>();
    for (Route r : routes) {
      String[] pattern = trimSlash(r.path()).split("/", -1);
      if (pattern.length != parts.length) {
        continue;
      }
      boolean match = true;
      for (int i = 0; i < parts.length && match; i++) {
        match = pattern[i].startsWith("{") ? !parts[i].isEmpty() : pattern[i].equals(parts[i]);
      }
      if (match) {
        methods.add(r.method().name());
      }
    }
    return String.join(", ", methods);
  }

  private static String trimSlash(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private static String routeOf(Context ctx) {
    try {
      String path = ctx.endpointHandlerPath();
      return path == null || path.isEmpty() ? "unmatched" : path;
    } catch (RuntimeException e) {
      return "unmatched";
    }
  }

  private static String version() {
    String v = HttpApi.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
