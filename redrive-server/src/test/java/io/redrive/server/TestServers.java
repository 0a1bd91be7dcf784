package io.redrive.server;

import io.redrive.Redrive;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Authorizer;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.Principal;
import io.redrive.server.auth.Role;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.config.StoreSettings;
import io.redrive.store.Store;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
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

  /** The secret of {@link #keyed}'s admin key, {@code ada}. */
  static final String ADMIN_KEY = "admin-secret-0123456789abcdef";

  /** The secret of {@link #keyed}'s viewer key, {@code vic}. */
  static final String VIEWER_KEY = "viewer-secret-0123456789abcdef";

  /**
   * A server of its own on a new SQLite store in {@code dir}, asking for a key: {@code ada} ({@link
   * #ADMIN_KEY}, admin), {@code vic} ({@link #VIEWER_KEY}, viewer), and {@code more}. The dashboard
   * tests' server: {@link Keyed#close} stops it and closes its store.
   */
  static Keyed keyed(Path dir, ApiKey... more) {
    List<ApiKey> keys = new ArrayList<>();
    keys.add(new ApiKey("ada", ADMIN_KEY, Role.ADMIN, List.of()));
    keys.add(new ApiKey("vic", VIEWER_KEY, Role.VIEWER, List.of()));
    keys.addAll(List.of(more));
    Store store = StoreSettings.sqlite(dir).open();
    try {
      return new Keyed(RedriveServer.start(config(), new KeyAuthorizer(keys), store), store);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * A server with keys over a store of the test's ({@link #keyed}).
   *
   * @param server the server
   * @param store its store, closed by {@link #close}
   */
  record Keyed(RedriveServer server, Store store) implements AutoCloseable {
    /** The server's engine (the system clock). */
    Redrive redrive() {
      return server.redrive();
    }

    /**
     * An engine on the server's store reading {@code clock}: what it saves and fires, the server's
     * pages and API show. Not to be closed (it would close the store).
     */
    Redrive engine(Clock clock) {
      return Redrive.builder(store).clock(clock).build();
    }

    /** A dashboard client signed in with {@code key}. */
    UiClient signedIn(String key) throws Exception {
      return UiClient.signedIn(server, key);
    }

    @Override
    public void close() {
      try {
        server.stop();
      } finally {
        store.close();
      }
    }
  }

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

  /** A queue name no other test uses. */
  static String unique(String prefix) {
    return prefix
        + "-"
        + NAMES.incrementAndGet()
        + "-"
        + Long.toHexString(System.nanoTime() & 0xffffff);
  }
}
