package io.redrive.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which names the schema qualifier rewrites: Redrive's tables and its own SQL functions only. */
class SchemaQualifierTest {
  private final SchemaQualifier q = new SchemaQualifier("app");

  @Test
  void tablesAndRedrivesOwnFunctions_areQualified_otherNamesAreNot() {
    assertThat(
            q.qualify(
                "SELECT m.id FROM redrive_messages m WHERE redrive_json_or_null(m.payload) IS NULL"))
        .isEqualTo(
            "SELECT m.id FROM app.redrive_messages m WHERE app.redrive_json_or_null(m.payload)"
                + " IS NULL");
    assertThat(q.qualify("SELECT redrive_unknown(x), x.redrive_col FROM app.redrive_queues"))
        .isEqualTo("SELECT redrive_unknown(x), x.redrive_col FROM app.redrive_queues");
    assertThat(q.qualify("SELECT 'redrive_messages', \"redrive_messages\""))
        .isEqualTo("SELECT 'redrive_messages', \"redrive_messages\"");
  }
}
