package io.redrive.bench.contender;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The benchmark's own embedded PostgreSQL server, started with durable settings: the targets are
 * stated for {@code fsync}, {@code synchronous_commit} and {@code full_page_writes} on, whereas the
 * test suite's server turns them off for speed, and with the 10 s {@code autovacuum_naptime}
 * docs/engine.md recommends for queue workloads. Started once per benchmark JVM; stopped at exit.
 */
public final class DurablePostgres {
  private static EmbeddedPostgres server;

  private DurablePostgres() {}

  /** JDBC url (with credentials) of the server's maintenance database, starting it if needed. */
  public static synchronized String adminUrl() {
    if (server == null) {
      try {
        server =
            EmbeddedPostgres.builder()
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                // A queue table sheds dead tuples as fast as messages flow; the default
                // one-minute autovacuum round let the steady state choke on them (docs/engine.md).
                .setServerConfig("autovacuum_naptime", "10s")
                // Statement statistics for the report's "where the time goes" figures.
                .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .setServerConfig("pg_stat_statements.track_utility", "on")
                .start();
      } catch (IOException e) {
        throw new UncheckedIOException("the embedded PostgreSQL server failed to start", e);
      }
    }
    return server.getJdbcUrl("postgres", "postgres");
  }
}
