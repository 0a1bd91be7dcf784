package io.redrive.jdbc;

import io.redrive.store.ProgressParams;
import io.redrive.store.RenewParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * Keeping a running lease: renewing it and recording the handler's progress, each checked against
 * the token. Entered from {@link JdbcStore#renewIfLeased} and {@link
 * JdbcStore#recordProgressIfLeased}, each in its own write transaction.
 */
final class Renewing {
  private final MessageRows messages;

  Renewing(MessageRows messages) {
    this.messages = messages;
  }

  Instant renew(Connection c, RenewParams p) throws SQLException {
    MessageRows.Locked locked = messages.lockLeased(c, p.token(), p.now());
    Duration timeout = p.leaseTimeout() != null ? p.leaseTimeout() : locked.policy().leaseTimeout();
    Instant expiresAt = LeaseWrites.capAtDeadline(locked.row(), p.now().plus(timeout));
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_messages SET visible_at = ? WHERE id = ?")) {
      ps.setLong(1, expiresAt.toEpochMilli());
      ps.setString(2, locked.row().id());
      ps.executeUpdate();
    }
    return expiresAt;
  }

  long recordProgress(Connection c, ProgressParams p) throws SQLException {
    MessageRow row = messages.lockLeased(c, p.token(), p.now()).row();
    messages.setProgress(c, row.id(), p.progress());
    return row.progress() | p.progress();
  }
}
