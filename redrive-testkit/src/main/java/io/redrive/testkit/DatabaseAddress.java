package io.redrive.testkit;

import io.redrive.store.Store;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * How another JVM reaches a {@link TestDatabase}: the store fixture's class name and the properties
 * its {@link StoreFixture#attach} needs (a SQLite file path; a PostgreSQL url and schema). Encoded
 * as one line so a test can hand it to a child process.
 *
 * @param fixture the {@link StoreFixture} class, which has a public static {@code INSTANCE} field
 * @param properties what {@link StoreFixture#attach} of that fixture reads
 */
public record DatabaseAddress(String fixture, Map<String, String> properties) {

  public DatabaseAddress {
    if (fixture == null || fixture.isBlank()) {
      throw new IllegalArgumentException("fixture: is required");
    }
    properties = Map.copyOf(properties);
  }

  /** {@code fixture;key=value;...} with url-encoded parts (keys sorted, so stable). */
  public String encode() {
    StringBuilder out = new StringBuilder(enc(fixture));
    new TreeMap<>(properties)
        .forEach((k, v) -> out.append(';').append(enc(k)).append('=').append(enc(v)));
    return out.toString();
  }

  /** The inverse of {@link #encode()}. */
  public static DatabaseAddress decode(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("database address: is required");
    }
    String[] parts = text.trim().split(";");
    Map<String, String> props = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      int eq = parts[i].indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("database address: bad property \"" + parts[i] + "\"");
      }
      props.put(dec(parts[i].substring(0, eq)), dec(parts[i].substring(eq + 1)));
    }
    return new DatabaseAddress(dec(parts[0]), props);
  }

  /**
   * Opens a store (its own connection pool: one more node) on the database this address names, by
   * loading the fixture class and calling its {@link StoreFixture#attach}. The caller closes it.
   */
  public Store open() {
    return loadFixture().attach(properties);
  }

  /** As {@link #open()}, with the store's connections coming through {@code wrap}. */
  public Store open(UnaryOperator<DataSource> wrap) {
    return loadFixture().attach(properties, wrap);
  }

  private StoreFixture loadFixture() {
    StoreFixture instance;
    try {
      Class<?> type = Class.forName(fixture);
      instance = (StoreFixture) type.getField("INSTANCE").get(null);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException(
          "fixture " + fixture + ": needs a public static StoreFixture INSTANCE field", e);
    }
    return instance;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String dec(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
