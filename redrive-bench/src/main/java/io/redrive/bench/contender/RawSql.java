package io.redrive.bench.contender;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The raw-SQL baseline files ({@code bench/raw-sql}), bundled verbatim as resources. */
final class RawSql {
  private RawSql() {}

  static String read(String name) {
    return resource("raw-sql/" + name);
  }

  /** A text resource of this package, e.g. {@code raw-sql/enq1.sql}. */
  static String resource(String path) {
    try (InputStream in = RawSql.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The statements of a script without comments, split at semicolons ending a line. */
  static List<String> statements(String script) {
    StringBuilder clean = new StringBuilder();
    for (String line : script.split("\n")) {
      int comment = line.indexOf("--");
      clean.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
    }
    List<String> out = new ArrayList<>();
    for (String s : clean.toString().split(";\\s*\n")) {
      String t = s.strip();
      if (t.endsWith(";")) {
        t = t.substring(0, t.length() - 1);
      }
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }

  /** {@code INSERT ... VALUES (a), (a), ...} with {@code rows} copies of enq1.sql's tuple. */
  static String multiRowInsert(String singleInsert, int rows) {
    int values = singleInsert.indexOf("VALUES");
    String head = singleInsert.substring(0, values + "VALUES".length());
    String tuple = singleInsert.substring(values + "VALUES".length()).strip();
    StringBuilder sql = new StringBuilder(head).append(' ');
    for (int i = 0; i < rows; i++) {
      sql.append(i == 0 ? "" : ", ").append(tuple);
    }
    return sql.toString();
  }
}
