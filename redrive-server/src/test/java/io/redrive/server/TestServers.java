package io.redrive.server;

import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Authorizer;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.Principal;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.config.StoreSettings;
import io.redrive.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One shared server per store for the test JVM (tests isolate themselves by queue name), plus the
 * test settings: small limits so oversize cases are cheap.
 */
final class TestServers {
  static final int MAX_PAYLOAD_BYTES = 16 * 1024;
  static final int MAX_REQUEST_BYTES = 64 * 1024;
  static final Duration MAX_LEASE_WAIT = Duration.ofSeconds(5);

  /** Lets everything, as a server without keys does. */
  static final Authorizer ALLOW_ALL =
      new Authorizer() {
        @Override
        public Principal authorize(String header, Permission permission, String queue) {
          return Principal.anonymousAdmin();
        }

        @Override
        public boolean enabled() {
          return false;
        }
      };

  private static final Map<StoreKind, RedriveServer> SHARED = new EnumMap<>(StoreKind.class);
  private static final Map<StoreKind, Store> STORES = new EnumMap<>(StoreKind.class);
  private static final AtomicInteger NAMES = new AtomicInteger();

  private TestServers() {}

  static ServerConfig config() {
    return ServerConfig.defaults()
        .withPort(0)
        .withLimits(MAX_PAYLOAD_BYTES, MAX_REQUEST_BYTES, MAX_LEASE_WAIT);
  }

  static synchronized RedriveServer shared(StoreKind kind) {
    return SHARED.computeIfAbsent(
        kind,
        k -> {
          Store store = k.newDatabase().open();
          STORES.put(k, store);
          RedriveServer server = RedriveServer.start(config(), ALLOW_ALL, store);
          Runtime.getRuntime()
              .addShutdownHook(
                  new Thread(
                      () -> {
                        server.stop();
                        store.close();
                      }));
          return server;
        });
  }

  /** The store under {@link #shared}'s server, for what only the store shows. */
  static synchronized Store sharedStore(StoreKind kind) {
    shared(kind);
    return STORES.get(kind);
  }

  /** A queue name no other test uses. */
  /** A server of its own on a SQLite store in {@code dir}, asking for one of {@code keys}. */
  static RedriveServer sqliteWithKeys(Path dir, ApiKey... keys) {
    return sqliteWithKeys(config().withStore(StoreSettings.sqlite(dir)), keys);
  }

  /**
   * A server of its own with {@code config} (its store included), asking for one of {@code keys}.
   */
  static RedriveServer sqliteWithKeys(ServerConfig config, ApiKey... keys) {
    return RedriveServer.start(config, new KeyAuthorizer(List.of(keys)));
  }

  static String unique(String prefix) {
    return prefix
        + "-"
        + NAMES.incrementAndGet()
        + "-"
        + Long.toHexString(System.nanoTime() & 0xffffff);
  }
}
