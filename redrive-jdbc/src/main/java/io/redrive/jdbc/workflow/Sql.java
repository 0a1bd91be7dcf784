package io.redrive.jdbc.workflow;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/** Binding helpers the workflow statements share. */
final class Sql {
  private Sql() {}

  static void setLong(PreparedStatement ps, int i, Long v) throws SQLException {
    if (v == null) {
      ps.setNull(i, Types.BIGINT);
    } else {
      ps.setLong(i, v);
    }
  }
}
