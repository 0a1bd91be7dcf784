package io.redrive.test;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL this module's own tests use: the server named by {@code REDRIVE_PG_URL}, else one
 * embedded server per test JVM (the kit itself never starts one; applications bring theirs).
 */
final class KitPostgres {
  private static String url;

  private KitPostgres() {}

  static synchronized String url() {
    if (url == null) {
      String external = System.getenv("REDRIVE_PG_URL");
      if (external != null && !external.isBlank()) {
        url = external.trim();
      } else {
        try {
          url = EmbeddedPostgres.builder().start().getJdbcUrl("postgres", "postgres");
        } catch (IOException e) {
          throw new UncheckedIOException("the embedded PostgreSQL server failed to start", e);
        }
      }
    }
    return url;
  }

  static DataSource dataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(url());
    return ds;
  }
}
