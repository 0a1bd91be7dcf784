package io.redrive.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

class StatementCacheTest {
  @TempDir Path dir;
  private HikariDataSource pool;
  private StatementCache cache;

  @BeforeEach
  void open() throws Exception {
    SQLiteDataSource sqlite = new SQLiteDataSource();
    sqlite.setUrl("jdbc:sqlite:" + dir.resolve("t.db"));
    HikariConfig config = new HikariConfig();
    config.setDataSource(sqlite);
    config.setMaximumPoolSize(1);
    pool = new HikariDataSource(config);
    cache = new StatementCache(pool);
    try (Connection c = cache.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)");
      s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
    }
  }

  @AfterEach
  void close() {
    pool.close();
  }

  @Test
  void prepare_sameSqlAfterClose_reusesTheStatementWithParametersCleared() throws Exception {
    String sql = "SELECT v FROM t WHERE k = ?";
    try (Connection c = cache.getConnection()) {
      PreparedStatement first = c.prepareStatement(sql);
      first.setInt(1, 1);
      assertThat(value(first)).isEqualTo("one");
      first.close();
      PreparedStatement second = c.prepareStatement(sql);
      assertThat(second.unwrap(PreparedStatement.class))
          .isSameAs(first.unwrap(PreparedStatement.class));
      second.setInt(1, 2);
      assertThat(value(second)).isEqualTo("two");
      second.close();
    }
  }

  @Test
  void prepare_sameSqlAfterABatchLeftUnrun_doesNotRunTheOldBatch() throws Exception {
    String sql = "INSERT INTO t VALUES (?, ?)";
    try (Connection c = cache.getConnection()) {
      PreparedStatement failed = c.prepareStatement(sql);
      failed.setInt(1, 3);
      failed.setString(2, "three");
      failed.addBatch();
      failed.close(); // its borrower failed before executeBatch
      PreparedStatement next = c.prepareStatement(sql);
      next.setInt(1, 4);
      next.setString(2, "four");
      next.addBatch();
      assertThat(next.executeBatch()).hasSize(1);
      next.close();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t WHERE k = 3")) {
        rs.next();
        assertThat(rs.getInt(1)).isZero();
      }
    }
  }

  @Test
  void prepare_sameSqlWhileOpen_getsAPrivateStatement() throws Exception {
    String sql = "SELECT v FROM t WHERE k = ?";
    try (Connection c = cache.getConnection();
        PreparedStatement outer = c.prepareStatement(sql)) {
      outer.setInt(1, 1);
      try (ResultSet rs = outer.executeQuery()) {
        rs.next();
        try (PreparedStatement inner = c.prepareStatement(sql)) {
          inner.setInt(1, 2);
          assertThat(value(inner)).isEqualTo("two");
        }
        assertThat(rs.getString(1)).isEqualTo("one");
      }
    }
  }

  @Test
  void statements_surviveTheConnectionGoingBackToThePool() throws Exception {
    String sql = "SELECT v FROM t WHERE k = ?";
    for (int k = 1; k <= 2; k++) {
      try (Connection c = cache.getConnection();
          PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setInt(1, k);
        assertThat(value(ps)).isEqualTo(k == 1 ? "one" : "two");
      }
    }
  }

  private static String value(PreparedStatement ps) throws Exception {
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getString(1) : null;
    }
  }
}
