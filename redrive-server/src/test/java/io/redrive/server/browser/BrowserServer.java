package io.redrive.server.browser;

import io.redrive.server.RedriveServer;
import io.redrive.store.Store;
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
