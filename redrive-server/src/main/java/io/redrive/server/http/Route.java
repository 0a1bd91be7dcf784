package io.redrive.server.http;

import io.javalin.http.HandlerType;
import io.redrive.server.auth.Permission;
import java.util.List;

/**
 * One endpoint of the API: everything the router, the authorization hook and the OpenAPI document
 * need, so the three cannot drift apart.
 *
 * @param method the HTTP method
 * @param path the path with {@code {param}} placeholders (OpenAPI syntax, also Javalin's)
 * @param summary one line for the OpenAPI document
 * @param permission what the caller needs, or null for unauthenticated service endpoints
 * @param requestBody the request body record, or null for none
 * @param queryParams the query parameters accepted (any other is refused as UNKNOWN_FIELD)
 * @param status the success status
 * @param response a name for the success body, or null for none (204)
 * @param action the handler
 */
record Route(
    HandlerType method,
    String path,
    String summary,
    Permission permission,
    Class<?> requestBody,
    List<String> queryParams,
    int status,
    String response,
    Action action) {

  /** Handles one call. */
  @FunctionalInterface
  interface Action {
    void handle(Exchange exchange) throws Exception;
  }

  static Route of(
      HandlerType method,
      String path,
      String summary,
      Permission permission,
      Class<?> requestBody,
      int status,
      String response,
      Action action) {
    return new Route(
        method, path, summary, permission, requestBody, List.of(), status, response, action);
  }

  Route withQueryParams(String... names) {
    return new Route(
        method, path, summary, permission, requestBody, List.of(names), status, response, action);
  }

  /** True when the path names a queue as {@code {name}}. */
  boolean queueInPath() {
    return path.contains("{name}");
  }
}
