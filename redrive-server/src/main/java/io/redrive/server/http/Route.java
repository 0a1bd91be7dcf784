package io.redrive.server.http;

import io.javalin.http.HandlerType;
import io.redrive.server.auth.Permission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One endpoint of the API: everything the router, the authorization hook and the OpenAPI document
 * need, so the three cannot drift apart.
 *
 * @param method the HTTP method
 * @param path the path with {@code {param}} placeholders (OpenAPI syntax, also Javalin's)
 * @param summary one line for the OpenAPI document
 * @param permission what the caller needs, or null for unauthenticated service endpoints
 * @param requestBody the request body record, or null for none
 * @param bodyRequired whether a call must send the body ({@link Exchange#body} enforces it)
 * @param queryParams the query parameters accepted (any other is refused as UNKNOWN_FIELD)
 * @param status the success status
 * @param response the success body's {@link Responses} record, or null for none (204)
 * @param otherResponses other statuses with a body that is not an error, e.g. 503 of /ready
 * @param aliasOf the path this route is a deprecated alias of (OpenAPI {@code deprecated}), or null
 * @param action the handler
 */
record Route(
    HandlerType method,
    String path,
    String summary,
    Permission permission,
    Class<?> requestBody,
    boolean bodyRequired,
    List<String> queryParams,
    int status,
    Class<?> response,
    Map<Integer, Class<?>> otherResponses,
    String aliasOf,
    Action action) {

  /** Handles one call. */
  @FunctionalInterface
  interface Action {
    void handle(Exchange exchange) throws Exception;
  }

  /** A route; a request body, when it has one, is required unless {@link #optionalBody()}. */
  static Route of(
      HandlerType method,
      String path,
      String summary,
      Permission permission,
      Class<?> requestBody,
      int status,
      Class<?> response,
      Action action) {
    return new Route(
        method,
        path,
        summary,
        permission,
        requestBody,
        requestBody != null,
        List.of(),
        status,
        response,
        Map.of(),
        null,
        action);
  }

  Route withQueryParams(String... names) {
    return new Route(
        method,
        path,
        summary,
        permission,
        requestBody,
        bodyRequired,
        List.of(names),
        status,
        response,
        otherResponses,
        aliasOf,
        action);
  }

  /** The same route with a body that may be left out (every field then takes its default). */
  Route optionalBody() {
    return new Route(
        method,
        path,
        summary,
        permission,
        requestBody,
        false,
        queryParams,
        status,
        response,
        otherResponses,
        aliasOf,
        action);
  }

  /** The same route, also answering {@code otherStatus} with a {@code body} record. */
  Route alsoAnswers(int otherStatus, Class<?> body) {
    Map<Integer, Class<?>> more = new LinkedHashMap<>(otherResponses);
    more.put(otherStatus, body);
    return new Route(
        method,
        path,
        summary,
        permission,
        requestBody,
        bodyRequired,
        queryParams,
        status,
        response,
        Map.copyOf(more),
        aliasOf,
        action);
  }

  /**
   * The same route answering at {@code oldPath} too: a deprecated alias kept for one release after
   * a rename, authorised, checked and described (as deprecated) exactly as this route.
   */
  Route aliasAt(String oldPath) {
    return new Route(
        method,
        oldPath,
        summary + " (deprecated alias of " + path + ")",
        permission,
        requestBody,
        bodyRequired,
        queryParams,
        status,
        response,
        otherResponses,
        path,
        action);
  }

  /** True when the path names a queue as {@code {name}}. */
  boolean queueInPath() {
    return path.contains("{name}");
  }
}
