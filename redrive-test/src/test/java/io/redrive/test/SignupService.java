package io.redrive.test;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * An application-style service for the kit's tests: it stores a user and enqueues the welcome email
 * in the same transaction, and rolls both back when the signup is refused after the enqueue.
 */
final class SignupService {
  private final DataSource db;
  private final Redrive redrive;

  SignupService(DataSource db, Redrive redrive) {
    this.db = db;
    this.redrive = redrive;
  }

  void createTable() throws SQLException {
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement("CREATE TABLE IF NOT EXISTS app_users (email TEXT PRIMARY KEY)")) {
      s.execute();
    }
    try (Connection c = db.getConnection();
        PreparedStatement s = c.prepareStatement("DELETE FROM app_users")) {
      s.execute(); // a server shared across runs (REDRIVE_PG_URL) keeps the table
    }
  }

  /** Signs {@code email} up; {@code refuse} stands for a check that fails after the enqueue. */
  void signUp(String email, boolean refuse) throws SQLException {
    try (Connection c = db.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement s = c.prepareStatement("INSERT INTO app_users (email) VALUES (?)")) {
        s.setString(1, email);
        s.executeUpdate();
      }
      redrive.enqueue(
          c,
          NewMessage.builder("emails", "welcome").payload("{\"email\":\"" + email + "\"}").build());
      if (refuse) {
        c.rollback();
        return;
      }
      c.commit();
    }
  }
}
