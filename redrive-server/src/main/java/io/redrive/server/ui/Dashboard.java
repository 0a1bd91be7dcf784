package io.redrive.server.ui;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.redrive.Redrive;
import io.redrive.server.auth.AuthException;
import io.redrive.server.auth.Authorizer;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.Principal;
import io.redrive.server.auth.WrongKeyThrottle;
import io.redrive.workflow.WorkflowClient;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web dashboard at {@code /ui} (docs/dashboard.md): server-rendered pages over the engine's
 * public API, on the API's port and with its keys. Pages are compiled jte templates, which escape
 * every value they print; a strict Content-Security-Policy allows only the server's own scripts and
 * styles; every form carries the session's CSRF token and every action is authorized again on the
 * server. Thread-safe.
 */
public final class Dashboard implements AutoCloseable {
  /** Where the dashboard lives. */
  public static final String ROOT = "/ui";

  /**
   * The Content-Security-Policy of every dashboard answer: the server's own scripts, styles and
   * images only; no inline script, no framing, forms post back to the server only.
   */
  public static final String CSP =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

  private static final Logger log = LoggerFactory.getLogger(Dashboard.class);

  private final Authorizer authorizer;
  private final Function<Throwable, UiFailure> failures;
  private final UiSessions sessions;
  private final TemplateEngine templates;
  private final Clock clock;
  private final WrongKeyThrottle throttle;
  private BulkJobs jobs;

  private Dashboard(
      Authorizer authorizer,
      WrongKeyThrottle throttle,
      Function<Throwable, UiFailure> failures,
      Clock clock) {
    this.throttle = throttle;
    this.authorizer = authorizer;
    this.failures = failures;
    this.clock = clock;
    this.sessions = new UiSessions(authorizer.sessionKeyMaterial(), clock);
    this.templates =
        TemplateEngine.createPrecompiled(
            null,
            ContentType.Html,
            Dashboard.class.getClassLoader(),
            "io.redrive.server.ui.templates");
  }

  /**
   * Adds the dashboard's routes to {@code app}; {@link #close()} stops its background actions.
   *
   * @param failures turns an exception into the status, code and message the API would answer
   */
  public static Dashboard install(
      Javalin app,
      Redrive redrive,
      Authorizer authorizer,
      WrongKeyThrottle throttle,
      Function<Throwable, UiFailure> failures) {
    Dashboard d = new Dashboard(authorizer, throttle, failures, redrive.clock());
    Assets assets = new Assets();
    app.get(ROOT + "/assets/{name}", ctx -> d.secure(ctx, () -> assets.serve(ctx)));
    app.get(ROOT + "/login", ctx -> d.secure(ctx, () -> d.loginPage(ctx, null)));
    app.post(ROOT + "/login", ctx -> d.secure(ctx, () -> d.login(ctx)));
    app.post(ROOT + "/logout", ctx -> d.secure(ctx, () -> d.logout(ctx)));
    Routes routes =
        (method, path, action) -> {
          if (method.equals("GET")) {
            app.get(path, ctx -> d.secure(ctx, () -> d.run(ctx, action, false)));
          } else {
            app.post(path, ctx -> d.secure(ctx, () -> d.run(ctx, action, true)));
          }
        };
    new Pages(redrive, d).register(routes);
    d.jobs = new BulkJobs(redrive);
    new Actions(redrive, d, d.jobs).register(routes);
    new SchedulePages(redrive, d).register(routes);
    new WhatIfPage(redrive, d).register(routes);
    // The workflow pages read as the API does; a store without workflows gets a page saying so.
    WorkflowAccess workflows =
        WorkflowClient.supports(redrive) ? new WorkflowAccess(WorkflowClient.on(redrive)) : null;
    new WorkflowFailurePages(d, workflows).register(routes);
    new WorkflowPages(d, workflows).register(routes);
    new WorkflowActions(d, workflows).register(routes);
    return d;
  }

  /** Stops the actions still running (their jobs end where they are). */
  @Override
  public void close() {
    if (jobs != null) {
      jobs.close();
    }
  }

  /** True for a path the dashboard serves (its errors are pages, not JSON). */
  public static boolean owns(String path) {
    return path.equals(ROOT) || path.startsWith(ROOT + "/");
  }

  /** A page handler: reads the request, renders a page or redirects. */
  @FunctionalInterface
  interface Action {
    void handle(UiRequest request) throws Exception;
  }

  /** Where {@link Pages} registers its routes. */
  @FunctionalInterface
  interface Routes {
    void add(String method, String path, Action action);
  }

  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  /** Sets the protective headers, runs {@code body}, and turns any failure into an error page. */
  private void secure(Context ctx, Body body) {
    protect(ctx);
    try {
      body.run();
    } catch (Exception e) {
      UiFailure f = failures.apply(e);
      if (f.status() >= 500) {
        log.warn("dashboard {} {} failed", ctx.method(), ctx.path(), e);
      }
      errorPage(ctx, f);
    }
  }

  private void run(Context ctx, Action action, boolean changesState) throws Exception {
    ctx.header("Cache-Control", "no-store");
    Optional<UiSessions.Session> session = sessions.read(ctx.cookie(UiSessions.COOKIE));
    if (session.isEmpty() && !authorizer.enabled()) {
      // No keys: everyone on this loopback-only server is the anonymous admin, but a session is
      // still opened so that forms carry a token a foreign page cannot know.
      String cookie = sessions.open("");
      setCookie(ctx, cookie, UiSessions.LIFETIME.toSeconds());
      session = sessions.read(cookie);
    }
    if (session.isEmpty()) {
      toLogin(ctx);
      return;
    }
    String authorization = authorizationOf(session.get());
    Principal principal;
    try {
      principal = authorizer.authorize(authorization, Permission.VIEW, null);
    } catch (AuthException e) {
      if (e.status() == 401) { // the key was removed or changed since login
        clearCookie(ctx);
        toLogin(ctx);
        return;
      }
      throw e;
    }
    String csrf = sessions.csrfToken(session.get());
    if (changesState && !sessions.csrfMatches(session.get(), ctx.formParam("_csrf"))) {
      errorPage(
          ctx,
          new UiFailure(
              403,
              "CSRF_CHECK_FAILED",
              "this form did not come from this session's pages (missing or wrong CSRF token):"
                  + " nothing was changed; reload the page and try again"));
      return;
    }
    action.handle(new UiRequest(ctx, authorizer, authorization, principal, csrf, clock.instant()));
  }

  private static String authorizationOf(UiSessions.Session session) {
    return session.secret().isEmpty() ? null : "Bearer " + session.secret();
  }

  private void toLogin(Context ctx) {
    String next = ctx.method().name().equals("GET") ? ctx.path() : ROOT;
    if (ctx.queryString() != null && ctx.method().name().equals("GET")) {
      next = next + "?" + ctx.queryString();
    }
    String login = ROOT + "/login?next=" + Fmt.q(next);
    if (UiRequest.isHtmx(ctx)) {
      // The browser would follow a 303 inside the live refresh and swap the sign-in form into the
      // page; HX-Redirect makes htmx open the sign-in page instead.
      ctx.header("HX-Redirect", login);
      errorPage(ctx, new UiFailure(401, "SIGN_IN_REQUIRED", "the session ended: sign in again"));
      return;
    }
    ctx.redirect(login, HttpStatus.SEE_OTHER);
  }

  private void loginPage(Context ctx, String error) {
    loginPage(ctx, error, error == null ? 200 : 401);
  }

  private void loginPage(Context ctx, String error, int status) {
    ctx.header("Cache-Control", "no-store");
    if (!authorizer.enabled()) {
      ctx.redirect(ROOT, HttpStatus.SEE_OTHER);
      return;
    }
    Map<String, Object> model = new LinkedHashMap<>();
    model.put(
        "next",
        safeNext(ctx.queryParam("next") != null ? ctx.queryParam("next") : ctx.formParam("next")));
    model.put("error", error);
    ctx.status(status);
    html(ctx, "login.jte", model);
  }

  private void login(Context ctx) {
    if (!authorizer.enabled()) {
      ctx.redirect(ROOT, HttpStatus.SEE_OTHER);
      return;
    }
    String key = ctx.formParam("key");
    if (key == null || key.isBlank()) {
      loginPage(ctx, "Type an API key.");
      return;
    }
    key = key.strip();
    Duration wait = throttle.waitFor(ctx.ip());
    if (!wait.isZero()) {
      ctx.header("Retry-After", String.valueOf(WrongKeyThrottle.retryAfterSeconds(wait)));
      loginPage(ctx, WrongKeyThrottle.refusal(wait), 429);
      return;
    }
    try {
      authorizer.authorize("Bearer " + key, Permission.VIEW, null);
    } catch (AuthException e) {
      if (e.status() == 401) {
        throttle.wrongKey(ctx.ip());
      }
      loginPage(ctx, e.status() == 401 ? "That key is not known to this server." : e.getMessage());
      return;
    }
    setCookie(ctx, sessions.open(key), UiSessions.LIFETIME.toSeconds());
    ctx.redirect(safeNext(ctx.formParam("next")), HttpStatus.SEE_OTHER);
  }

  private void logout(Context ctx) {
    Optional<UiSessions.Session> session = sessions.read(ctx.cookie(UiSessions.COOKIE));
    if (session.isPresent()) {
      if (!sessions.csrfMatches(session.get(), ctx.formParam("_csrf"))) {
        errorPage(
            ctx,
            new UiFailure(
                403, "CSRF_CHECK_FAILED", "sign-out must come from this session's pages"));
        return;
      }
      sessions.revoke(session.get());
    }
    clearCookie(ctx);
    ctx.redirect(authorizer.enabled() ? ROOT + "/login" : ROOT, HttpStatus.SEE_OTHER);
  }

  /** {@code next} when it is a dashboard path, else the overview: never a redirect elsewhere. */
  static String safeNext(String next) {
    if (next == null
        || !owns(next.contains("?") ? next.substring(0, next.indexOf('?')) : next)
        || next.contains("//")
        || next.contains("\\")
        || next.startsWith(ROOT + "/login")) {
      return ROOT;
    }
    return next;
  }

  private void setCookie(Context ctx, String value, long maxAgeSeconds) {
    ctx.res()
        .addHeader(
            "Set-Cookie",
            UiSessions.COOKIE
                + "="
                + value
                + "; Path="
                + ROOT
                + "; Max-Age="
                + maxAgeSeconds
                + "; HttpOnly; SameSite=Strict"
                + (isHttps(ctx) ? "; Secure" : ""));
  }

  private void clearCookie(Context ctx) {
    setCookie(ctx, "", 0);
  }

  private static boolean isHttps(Context ctx) {
    return "https".equalsIgnoreCase(ctx.scheme())
        || "https".equalsIgnoreCase(ctx.header("X-Forwarded-Proto"));
  }

  /** Renders {@code template} with {@code model} as the answer. */
  void html(Context ctx, String template, Map<String, Object> model) {
    StringOutput out = new StringOutput();
    templates.render(template, model, out);
    ctx.contentType("text/html; charset=utf-8").result(out.toString());
  }

  /** Renders a page template with the page chrome. */
  void page(UiRequest request, String template, String title, Object model) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("chrome", request.chrome());
    params.put("title", title);
    params.put("model", model);
    html(request.ctx(), template, params);
  }

  /** Renders the error page for {@code failure} with its status. */
  void errorPage(Context ctx, UiFailure failure) {
    ctx.header("Cache-Control", "no-store");
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("failure", failure);
    ctx.status(failure.status());
    html(ctx, "error.jte", params);
  }

  /** The headers docs/dashboard.md promises for every page, error pages included. */
  private static void protect(Context ctx) {
    ctx.header("Content-Security-Policy", CSP);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Referrer-Policy", "same-origin");
  }

  /** The dashboard's error page for a path no route serves: styled, with every page's headers. */
  public void notFound(Context ctx) {
    protect(ctx);
    errorPage(
        ctx,
        new UiFailure(
            404,
            "NOT_FOUND",
            "No dashboard page at this address: " + ctx.path() + ". Start from the overview."));
  }
}
