package io.redrive.server.browser;

import io.redrive.server.RedriveServer;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Role;
import io.redrive.server.config.ServerConfig;
import io.redrive.store.Store;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * One store's database, the store on it and a server over it, for a browser test class: started per
 * store, stopped (server, store, then the database dropped) even when a step fails.
 */
record BrowserServer(BrowserStore.Database database, Store store, RedriveServer server) {

  /** A fresh database of {@code kind}, its store, and the server {@code start} makes over it. */
  static BrowserServer start(BrowserStore kind, Function<Store, RedriveServer> start) {
    BrowserStore.Database database = kind.newDatabase();
    Store store = database.open();
    try {
      return new BrowserServer(database, store, start.apply(store));
    } catch (RuntimeException e) {
      store.close();
      database.drop().run();
      throw e;
    }
  }

  /**
   * A server with a workflow runtime of {@code registry} (node {@code nodeId}, 2 attempts, 50 ms
   * polls), asking for the admin key {@code adminKey}: what the workflow browser tests share.
   */
  static BrowserServer startWithWorkflows(
      BrowserStore kind, String adminKey, WorkflowRegistry registry, String nodeId) {
    return start(
        kind,
        store ->
            RedriveServer.start(
                ServerConfig.defaults().withPort(0),
                new KeyAuthorizer(List.of(new ApiKey("ada", adminKey, Role.ADMIN, List.of()))),
                store,
                redrive ->
                    WorkflowRuntime.builder(redrive, registry)
                        .nodeId(nodeId)
                        .maxAttempts(2)
                        .pollInterval(Duration.ofMillis(50))
                        .build()));
  }

  /** Stops what {@link #start} started; a null server (never started) stops nothing. */
  static void stop(BrowserServer running) {
    if (running == null) {
      return;
    }
    try {
      running.server().stop();
    } finally {
      try {
        running.store().close();
      } finally {
        running.database().drop().run();
      }
    }
  }
}
