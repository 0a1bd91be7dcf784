package io.redrive.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.redrive.server.auth.AuthException;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.Principal;
import io.redrive.server.auth.WrongKeyThrottle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** One call in progress: its route, the request and how to answer it. Not thread-safe. */
final class Exchange {
  private final Context ctx;
  private final Route route;
  private final Shared shared;
  private Principal principal;

  /** What every exchange of one server shares. */
  record Shared(
      JsonCodec json,
      io.redrive.server.auth.Authorizer authorizer,
      int maxRequestBytes,
      WrongKeyThrottle throttle) {}

  Exchange(Context ctx, Route route, Shared shared) {
    this.ctx = ctx;
    this.route = route;
    this.shared = shared;
  }

  Context context() {
    return ctx;
  }

  JsonCodec json() {
    return shared.json();
  }

  /** Authenticates the caller for the route's permission and the queue in the path (if any). */
  void authorizeRoute() {
    if (route.permission() == null) {
      return;
    }
    String queue = route.queueInPath() ? ctx.pathParam("name") : null;
    String authorization = ctx.header("Authorization");
    if (authorization == null) {
      principal = shared.authorizer().authorize(null, route.permission(), queue);
      return;
    }
    Duration wait = shared.throttle().waitFor(ctx.ip());
    if (!wait.isZero()) {
      ctx.header("Retry-After", String.valueOf(WrongKeyThrottle.retryAfterSeconds(wait)));
      throw new ApiException(429, "TOO_MANY_WRONG_KEYS", WrongKeyThrottle.refusal(wait));
    }
    try {
      principal = shared.authorizer().authorize(authorization, route.permission(), queue);
    } catch (AuthException e) {
      if (e.status() == 401) {
        shared.throttle().wrongKey(ctx.ip());
      }
      throw e;
    }
  }

  /** Checks the route's permission on one more queue (e.g. the queue of a token's message). */
  void authorizeQueue(String queue) {
    shared.authorizer().authorize(ctx.header("Authorization"), route.permission(), queue);
  }

  /** True when the caller may use the route's permission on {@code queue}. */
  boolean mayAccess(Permission permission, String queue) {
    try {
      shared.authorizer().authorize(ctx.header("Authorization"), permission, queue);
      return true;
    } catch (AuthException e) {
      return false;
    }
  }

  /** True when the caller's key scope includes {@code queue} (the role is not checked here). */
  boolean inScope(String queue) {
    return principal == null || principal.mayAccess(queue);
  }

  /** True when the caller's key scope includes what a schedule of {@code target} produces. */
  boolean inScope(io.redrive.schedule.ScheduleTarget target) {
    return principal == null || principal.mayAccess(target);
  }

  /** True when the caller's key scope includes the orchestration {@code name}. */
  boolean mayAccessWorkflow(String name) {
    return principal == null || principal.mayAccessWorkflow(name);
  }

  /** True when the caller's key is limited to some queues. */
  boolean scoped() {
    return principal != null && !principal.queues().isEmpty();
  }

  /** The caller's name for history entries, or null when anonymous. */
  String actor() {
    return principal == null || principal.anonymous() ? null : principal.name();
  }

  /**
   * Refuses query parameters the route does not accept, and a NUL (U+0000) in any of them: neither
   * store can compare with one, so it is bad input naming the parameter on both.
   */
  void checkQuery() {
    for (Map.Entry<String, List<String>> e : ctx.queryParamMap().entrySet()) {
      for (String value : e.getValue()) {
        if (value.indexOf('\0') >= 0) {
          throw new IllegalArgumentException(
              e.getKey() + ": must not contain the NUL character (U+0000)");
        }
      }
    }
    for (String name : ctx.queryParamMap().keySet()) {
      if (!route.queryParams().contains(name)) {
        throw ApiException.unknownField(
            name,
            route.queryParams().isEmpty()
                ? " (this endpoint takes no query parameters)"
                : " in the query (known: " + String.join(", ", route.queryParams()) + ")");
      }
    }
  }

  String path(String name) {
    return ctx.pathParam(name);
  }

  List<String> queryAll(String name) {
    return ctx.queryParams(name);
  }

  /** The single value of a query parameter, or null; repeated values are refused. */
  String query(String name) {
    List<String> values = ctx.queryParams(name);
    if (values.isEmpty()) {
      return null;
    }
    if (values.size() > 1) {
      throw new IllegalArgumentException(name + ": given more than once");
    }
    return values.get(0);
  }

  /**
   * Refuses a body on a route that takes none (pause, resume, single retry, ...), as a body with
   * unknown fields is refused elsewhere: an empty body or {@code {}} is fine.
   */
  void checkNoBody() throws IOException {
    if (route.requestBody() != null || ctx.method().name().equals("GET")) {
      return;
    }
    JsonNode node = shared.json().read(bytes(), JsonNode.class);
    if (node == null || node.isNull()) {
      return;
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException("body: this endpoint takes no body (or {})");
    }
    java.util.Iterator<String> names = node.fieldNames();
    if (names.hasNext()) {
      throw ApiException.unknownField(names.next(), " (this endpoint takes no body fields)");
    }
  }

  /** The request body as {@code type}; null when absent and the route's body is optional. */
  <T> T body(Class<T> type) throws IOException {
    if (type != route.requestBody()) {
      throw new IllegalStateException(route.path() + " declares body " + route.requestBody());
    }
    T value = shared.json().read(bytes(), type);
    if (value == null && route.bodyRequired()) {
      throw new IllegalArgumentException("body: a JSON object is required");
    }
    return value;
  }

  /** The request body as a JSON object (to tell absent fields from nulls), or an empty object. */
  ObjectNode bodyObject() throws IOException {
    JsonNode node = shared.json().read(bytes(), JsonNode.class);
    if (node == null || node.isNull()) {
      return shared.json().mapper().createObjectNode();
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException("body: expected a JSON object");
    }
    return (ObjectNode) node;
  }

  private byte[] bytes() throws IOException {
    long limit = shared.maxRequestBytes();
    long declared = ctx.req().getContentLengthLong();
    if (declared > limit) {
      throw ApiException.tooLarge(declared, limit);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try (InputStream in = ctx.req().getInputStream()) {
      int n;
      while ((n = in.read(buffer)) != -1) {
        out.write(buffer, 0, n);
        if (out.size() > limit) {
          throw ApiException.tooLarge(-1, limit);
        }
      }
    }
    return out.toByteArray();
  }

  void reply(int status, Object body) {
    ctx.status(status).contentType("application/json").result(shared.json().write(body));
  }

  void reply(Object body) {
    reply(route.status(), body);
  }

  void noContent() {
    ctx.status(204);
  }

  /** Answers when {@code future} completes; failures go to the error mapper. */
  void replyLater(CompletableFuture<?> future) {
    ctx.future(() -> future.thenAccept(this::reply));
  }
}
