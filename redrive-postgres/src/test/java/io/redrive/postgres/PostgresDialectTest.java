package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.TestPostgres;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresDialectTest {

  @Test
  void arrayLiteral_awkwardValues_roundTripThroughTheServer() throws Exception {
    List<String> values =
        List.of("plain", "with,comma", "with \"quote\"", "back\\slash", "{braces}", "", "NULL");
    try (Connection c = DriverManager.getConnection(TestPostgres.adminUrl());
        PreparedStatement ps = c.prepareStatement("SELECT CAST(? AS text[])")) {
      ps.setString(1, PostgresDialect.arrayLiteral(values));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        Array array = rs.getArray(1);
        assertThat((Object[]) array.getArray()).containsExactlyElementsOf(values);
      }
    }
  }

  @Test
  void batchForms_singleValueComparedDirectly_manyAsOneArray() {
    PostgresDialect d = new PostgresDialect("ch");
    assertThat(d.in(1)).isEqualTo("= ?");
    assertThat(d.in(3)).isEqualTo("= ANY(CAST(? AS text[]))");
    assertThat(d.tokensMatch(1)).isEqualTo("id = ? AND lease_token = ?");
  }

  @Test
  void isTransient_lostConnectionRetried_butNotAPoolThatHadNoConnectionInTime() {
    PostgresDialect d = new PostgresDialect("ch");
    assertThat(d.isTransient(new java.sql.SQLException("I/O error", "08006"))).isTrue();
    assertThat(
            d.isTransient(
                new java.sql.SQLTransientConnectionException(
                    "redrive-postgres - Connection is not available, request timed out after 2000ms.",
                    "08001")))
        .isFalse();
  }

  @Test
  void isTransient_aStatementTheDatabaseDidNotAnswerInTime_isNotRetried() {
    PostgresDialect d = new PostgresDialect("ch");
    java.sql.SQLException timedOut =
        new java.sql.SQLException(
            "An I/O error occurred while sending to the backend.",
            "08006",
            new java.net.SocketTimeoutException("Read timed out"));
    assertThat(d.isTransient(timedOut)).isFalse();
  }
}
