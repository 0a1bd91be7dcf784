package io.redrive.server.browser;

import io.redrive.Redrive;
import io.redrive.queue.QueuePolicy;
import io.redrive.server.RedriveServer;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Role;
import io.redrive.server.config.ServerConfig;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;

/**
 * Base of the dashboard's browser tests: each concrete class is a {@code @ParameterizedClass} over
 * {@link BrowserStore}, with one headless Chromium for the whole class and, per store, one server
 * with keys ({@link #ADMIN_KEY} {@code ada}, {@link #VIEWER_KEY} {@code vic}) over a fresh
 * database. Tests set their data up with the server's engine ({@link #redrive}) in queues of their
 * own ({@link #queue}) and drive the pages through {@link #ui}, which starts every test signed out.
 */
abstract class BrowserTestBase {
  static final String ADMIN_KEY = "admin-secret-0123456789abcdef";
  static final String VIEWER_KEY = "viewer-secret-0123456789abcdef";

  private static final AtomicInteger NAMES = new AtomicInteger();

  static Browser browser;
  static BrowserServer running;
  static BrowserStore.Database database;
  static RedriveServer server;
  static Redrive redrive;

  @Parameter BrowserStore kind;

  DashboardUi ui;

  @BeforeAll
  static void startBrowser() {
    browser = Browsers.start();
  }

  @AfterAll
  static void quitBrowser() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
  }

  @BeforeParameterizedClassInvocation
  static void startServer(BrowserStore kind) {
    running =
        BrowserServer.start(
            kind,
            store ->
                RedriveServer.start(
                    ServerConfig.defaults().withPort(0),
                    new KeyAuthorizer(
                        List.of(
                            new ApiKey("ada", ADMIN_KEY, Role.ADMIN, List.of()),
                            new ApiKey("vic", VIEWER_KEY, Role.VIEWER, List.of()))),
                    store));
    server = running.server();
    database = running.database();
    redrive = server.redrive();
  }

  @AfterParameterizedClassInvocation
  static void stopServer() {
    try {
      BrowserServer.stop(running);
    } finally {
      running = null;
      server = null;
      database = null;
      redrive = null;
    }
  }

  @BeforeEach
  void signedOut() {
    ui = new DashboardUi(browser, server.baseUrl(), kind.label());
    ui.forgetSession();
    browser.clearConsole();
  }

  /** Creates a queue no other test uses, named {@code <prefix>-<n>}; returns its name. */
  static String queue(String prefix, QueuePolicy policy) {
    String name = prefix + "-" + NAMES.incrementAndGet();
    redrive.createQueue(name, policy);
    return name;
  }
}
