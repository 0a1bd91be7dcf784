package io.redrive.server.config;

import java.nio.file.Path;

/**
 * Which store the server runs on.
 *
 * @param kind SQLITE (default) or POSTGRES
 * @param dataDir the SQLite data directory (default {@code ./data})
 * @param pgUrl the PostgreSQL JDBC url (POSTGRES only)
 * @param pgUser the PostgreSQL user, or null (from the url)
 * @param pgPassword the PostgreSQL password, or null
 * @param pgSchema the schema for Redrive's tables, or null for the search path's
 * @param poolSize connections in the pool
 */
public record StoreSettings(
    Kind kind,
    Path dataDir,
    String pgUrl,
    String pgUser,
    String pgPassword,
    String pgSchema,
    int poolSize) {

  /** The two stores. */
  public enum Kind {
    SQLITE,
    POSTGRES
  }

  public static StoreSettings sqlite(Path dataDir) {
    return new StoreSettings(Kind.SQLITE, dataDir, null, null, null, null, 4);
  }

  public static StoreSettings postgres(String url, String user, String password, String schema) {
    return new StoreSettings(Kind.POSTGRES, null, url, user, password, schema, 10);
  }

  /** Shows every setting except the password. */
  @Override
  public String toString() {
    return "StoreSettings[kind="
        + kind
        + ", dataDir="
        + dataDir
        + ", pgUrl="
        + (pgUrl == null ? null : pgUrl.replaceAll("(?i)(password=)[^&]*", "$1****"))
        + ", pgUser="
        + pgUser
        + ", pgPassword="
        + (pgPassword == null ? "null" : "****")
        + ", pgSchema="
        + pgSchema
        + ", poolSize="
        + poolSize
        + "]";
  }
}
