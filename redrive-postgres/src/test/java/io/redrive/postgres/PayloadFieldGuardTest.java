package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.store.Store;
import io.redrive.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The payload-field test has two guards against payloads that are not JSON: {@code
 * pg_input_is_valid} (PostgreSQL 16 and later) and the schema's {@code redrive_json_or_null} (the
 * servers before 16). The test server is newer, so both forms are run here on the same rows, and
 * must find the same messages, with no error from the text that is not JSON.
 */
class PayloadFieldGuardTest {

  @Test
  void bothGuards_findTheSameMessages_andSkipTextThatIsNotJson() throws Exception {
    TestDatabase db = PostgresFixture.INSTANCE.newDatabase();
    try (Store store = db.openStore()) {
      Redrive redrive = Redrive.builder(store).build();
      redrive.createQueue("q");
      List<String> ids = new ArrayList<>();
      for (String payload :
          List.of(
              "{\"order\":{\"id\":42}}",
              "{\"order\":{\"id\":\"42\"}}",
              "not json at all",
              "{\"order\": {\"id\": 42",
              "{\"order\":{\"id\":[42]}}",
              "{\"order\":{\"id\":43}}")) {
        ids.add(redrive.enqueue(NewMessage.builder("q", "t").payload(payload).build()).id());
      }

      try (Connection c = db.connect()) {
        assertThat(find(c, true)).containsExactly(ids.get(0), ids.get(1));
        assertThat(find(c, false)).containsExactly(ids.get(0), ids.get(1));
        try (PreparedStatement ps = c.prepareStatement("SELECT redrive_json_or_null(?)")) {
          ps.setString(1, "{broken");
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            assertThat(rs.getString(1)).isNull();
          }
        }
      }
    } finally {
      db.close();
    }
  }

  private static List<String> find(Connection c, boolean inputIsValid) throws Exception {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT m.id FROM redrive_messages m WHERE m.queue = 'q' AND "
                + PostgresDialect.payloadFieldTest(inputIsValid)
                + " ORDER BY m.seq")) {
      ps.setString(1, "strict $.\"order\".\"id\"");
      ps.setString(2, "42");
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }
}
