package io.redrive.server.ui;

import io.javalin.http.Context;
import io.redrive.server.auth.Authorizer;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.Principal;
import java.time.Instant;

/**
 * One dashboard request after its session was opened: the Javalin context, the principal and the
 * page chrome. {@link #require} authorizes through the same {@link Authorizer} as the JSON API, so
 * a forged form is refused exactly as a forged API call would be.
 */
final class UiRequest {
  private final Context ctx;
  private final Authorizer authorizer;
  private final String authorization;
  private final Principal principal;
  private final Chrome chrome;

  UiRequest(
      Context ctx,
      Authorizer authorizer,
      String authorization,
      Principal principal,
      String csrf,
      Instant now) {
    this.ctx = ctx;
    this.authorizer = authorizer;
    this.authorization = authorization;
    this.principal = principal;
    this.chrome =
        new Chrome(
            principal.name(),
            principal.role().label(),
            authorizer.enabled(),
            principal.role().grants(Permission.ADMIN),
            csrf,
            ctx.path(),
            now,
            ctx.queryString() == null ? ctx.path() : ctx.path() + "?" + ctx.queryString(),
            isHtmx(ctx));
  }

  /** True for a request htmx made (the live refresh), which it marks with {@code HX-Request}. */
  static boolean isHtmx(Context ctx) {
    return "true".equals(ctx.header("HX-Request"));
  }

  Context ctx() {
    return ctx;
  }

  Principal principal() {
    return principal;
  }

  Chrome chrome() {
    return chrome;
  }

  Instant now() {
    return chrome.now();
  }

  /** The actor recorded in a message's history for an action taken here. */
  String actor() {
    return "ui:" + principal.name();
  }

  /**
   * Authorizes {@code permission} on {@code queue} (null: not about one queue).
   *
   * @throws io.redrive.server.auth.AuthException 403 when the role or scope does not allow it
   */
  void require(Permission permission, String queue) {
    authorizer.authorize(authorization, permission, queue);
  }

  /** True when the principal may do {@code permission} on {@code queue}. */
  boolean may(Permission permission, String queue) {
    return principal.role().grants(permission) && (queue == null || principal.mayAccess(queue));
  }

  /** A path parameter, as given (refused with a NUL in it, as every input is). */
  String path(String name) {
    return noNul(name, ctx.pathParam(name));
  }

  /** A query parameter, or null. */
  String query(String name) {
    return noNul(name, ctx.queryParam(name));
  }

  /** A form field, or null. */
  String form(String name) {
    return noNul(name, ctx.formParam(name));
  }

  /**
   * Refuses a NUL (U+0000), naming the field: PostgreSQL cannot compare with one and SQLite would
   * keep it, so on both stores it is bad input (a 400 page), never a store error.
   */
  private static String noNul(String name, String value) {
    if (value != null && value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(name + ": must not contain the NUL character (U+0000)");
    }
    return value;
  }
}
