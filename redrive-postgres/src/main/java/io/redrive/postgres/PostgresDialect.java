package io.redrive.postgres;

import io.redrive.jdbc.SqlDialect;
import io.redrive.message.PayloadField;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Collection;
import java.util.List;

/**
 * PostgreSQL: row locks with {@code FOR UPDATE}, {@code SKIP LOCKED} so concurrent leasers on many
 * nodes never wait for each other's candidates, and a {@code NOTIFY} per queue per transaction to
 * wake idle workers. Batches of two or more travel as text arrays, so one statement text (prepared
 * once per connection) serves every batch size.
 */
final class PostgresDialect implements SqlDialect {
  /**
   * The first half of every advisory lock Redrive takes ("RDrv"), so its locks never meet an
   * application's one-number advisory locks, nor its two-number ones of another class.
   */
  static final int ADVISORY_CLASS = 0x52447276;

  private final String channel;

  /**
   * @param channel the NOTIFY channel (one per schema, so schemas sharing a database don't mix)
   */
  PostgresDialect(String channel) {
    this.channel = channel;
  }

  /** The NOTIFY channel of a schema (null: the search path's). */
  static String channel(String schema) {
    return schema == null ? "redrive_ready" : "redrive_ready:" + schema;
  }

  /** Transaction-scoped advisory locks, taken one after another in the keys' order. */
  @Override
  public void lockKeys(Connection connection, int[] keys) throws SQLException {
    Integer[] boxed = new Integer[keys.length];
    for (int i = 0; i < keys.length; i++) {
      boxed[i] = keys[i];
    }
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT pg_advisory_xact_lock(?, k) FROM unnest(?::int4[]) WITH ORDINALITY AS t(k, n)"
                + " ORDER BY n")) {
      ps.setInt(1, ADVISORY_CLASS);
      ps.setArray(2, connection.createArrayOf("int4", boxed));
      ps.execute();
    }
  }

  @Override
  public String lockRows(String alias) {
    return "FOR UPDATE OF " + alias;
  }

  @Override
  public String lockRowsShared(String alias) {
    return "FOR SHARE OF " + alias;
  }

  @Override
  public String lockRowsSkipLocked(String alias) {
    return "FOR UPDATE OF " + alias + " SKIP LOCKED";
  }

  @Override
  public boolean isTransient(SQLException e) {
    if (e instanceof SQLTransientConnectionException) {
      // The pool found no connection within its connectionTimeout (the database is down):
      // retrying the transaction would only multiply that wait while the request's answer waits.
      return false;
    }
    if (socketTimedOut(e)) {
      // The database stopped answering (the pool's socketTimeout): a retry would most likely
      // wait that long again, so the caller's answer would wait a multiple of it.
      return false;
    }
    String state = e.getSQLState();
    if (state == null) {
      return false;
    }
    return state.equals("40001") // serialization failure
        || state.equals("40P01") // deadlock detected
        || state.equals("55P03") // lock not available
        || state.equals("57P01") // admin shutdown
        || state.startsWith("08"); // connection exception
  }

  private static boolean socketTimedOut(Throwable e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth < 10; t = t.getCause(), depth++) {
      if (t instanceof java.net.SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean singleStatementWrites() {
    return true;
  }

  @Override
  public boolean insertsByColumnArrays() {
    return true;
  }

  /** Eight: nodes writing their counters at the same moment meet on a row one time in eight. */
  @Override
  public int throughputSlots() {
    return 8;
  }

  /**
   * Past the store's slots, the backend's process id: a backend runs one transaction at a time, so
   * no concurrent transaction writes this row, however long the application keeps its own open.
   */
  @Override
  public String callerThroughputSlot() {
    return "(8 + pg_backend_pid())";
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return "23505".equals(e.getSQLState());
  }

  @Override
  public void afterMessagesReady(Connection connection, String queue) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
      ps.setString(1, channel);
      ps.setString(2, queue);
      ps.execute();
    }
  }

  @Override
  public String pairs(int count) {
    if (count == 1) {
      return SqlDialect.super.pairs(1);
    }
    return "unnest(CAST(? AS text[]), CAST(? AS text[])) AS v(id, token)";
  }

  @Override
  public int bindPairs(PreparedStatement ps, int index, List<String> ids, List<String> tokens)
      throws SQLException {
    if (ids.size() == 1) {
      return SqlDialect.super.bindPairs(ps, index, ids, tokens);
    }
    ps.setString(index++, arrayLiteral(ids));
    ps.setString(index++, arrayLiteral(tokens));
    return index;
  }

  /**
   * The id array drives an index scan; the pairs then match by a hash semi-join. Testing the token
   * against the nonce array instead ({@code lease_token = ANY(...)}) compared every row with every
   * nonce (a parameter array is searched linearly): at 100 completions that filter was three
   * quarters of the statement (4.7 ms against 1.8 ms, measured). A join on the pairs alone made the
   * generic plan scan the whole table.
   */
  @Override
  public String tokensMatch(int count) {
    if (count == 1) {
      return "id = ? AND lease_token = ?";
    }
    return "id = ANY(CAST(? AS text[])) AND (id, lease_token) IN"
        + " (SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[])))";
  }

  @Override
  public int bindTokensMatch(PreparedStatement ps, int index, List<String> ids, List<String> nonces)
      throws SQLException {
    if (ids.size() == 1) {
      return bindPairs(ps, index, ids, nonces);
    }
    ps.setString(index++, arrayLiteral(ids));
    return bindPairs(ps, index, ids, nonces);
  }

  @Override
  public String in(int count) {
    if (count == 1) {
      return "= ?";
    }
    return "= ANY(CAST(? AS text[]))";
  }

  @Override
  public int bindIn(PreparedStatement ps, int index, Collection<String> values)
      throws SQLException {
    if (values.size() == 1) {
      return SqlDialect.super.bindIn(ps, index, values);
    }
    ps.setString(index++, arrayLiteral(values));
    return index;
  }

  /**
   * A text-array literal with every element quoted and escaped, bound as a plain string and cast by
   * the server, so binding needs no driver array support.
   */
  static String arrayLiteral(Collection<String> values) {
    StringBuilder sb = new StringBuilder(values.size() * 40).append('{');
    for (String v : values) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append('"');
      for (int i = 0; i < v.length(); i++) {
        char ch = v.charAt(i);
        if (ch == '"' || ch == '\\') {
          sb.append('\\');
        }
        sb.append(ch);
      }
      sb.append('"');
    }
    return sb.append('}').toString();
  }

  /**
   * {@code payload} is text, and casting text that is not JSON to {@code jsonb} raises an error, so
   * the cast is guarded: on PostgreSQL 16 and later by {@code pg_input_is_valid} in an outer {@code
   * CASE} (PostgreSQL evaluates a {@code CASE}'s branches in order but not the operands of an
   * {@code AND}); before 16 by the schema's {@code redrive_json_or_null}, which answers null for
   * text that is not JSON (migration V17).
   */
  @Override
  public void payloadFieldEquals(
      Connection connection, PayloadField field, StringBuilder sql, List<Object> args)
      throws SQLException {
    sql.append(payloadFieldTest(connection.getMetaData().getDatabaseMajorVersion() >= 16));
    // The names are [A-Za-z0-9_-] (PayloadField checks), so quoting each needs no escapes.
    StringBuilder path = new StringBuilder("strict $");
    for (String name : field.names()) {
      path.append(".\"").append(name).append('"');
    }
    args.add(path.toString());
    args.add(field.value());
  }

  /**
   * The test of {@link #payloadFieldEquals}: two parameters, the JSON path and the value. A strict
   * path with errors silenced: a name reads an object's member only (a name of digits never indexes
   * an array, as in SQLite), and a missing one is null rather than an error.
   */
  static String payloadFieldTest(boolean inputIsValid) {
    String lookup =
        "(SELECT CASE WHEN jsonb_typeof(f.v) IN ('string', 'number', 'boolean') THEN f.v #>> '{}'"
            + " END FROM (SELECT jsonb_path_query_first(%s, ?::jsonpath, '{}', true) AS v) f)";
    return inputIsValid
        ? "(CASE WHEN pg_input_is_valid(m.payload, 'jsonb') THEN "
            + lookup.formatted("m.payload::jsonb")
            + " END) = ?"
        : lookup.formatted("redrive_json_or_null(m.payload)") + " = ?";
  }
}
