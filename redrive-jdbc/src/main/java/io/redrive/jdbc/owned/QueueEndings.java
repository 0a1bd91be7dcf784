package io.redrive.jdbc.owned;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What the owner of a queue hears of the ends of its messages: the queue statements call it inside
 * the transaction that ends a message, so the owner's record of the end commits or rolls back with
 * it.
 */
public interface QueueEndings {

  /**
   * Tells the owner that {@code message} ended.
   *
   * @throws IllegalArgumentException when the end carries a result the owner refuses (nothing of
   *     the transaction then commits)
   */
  void ended(Connection c, EndedMessage message) throws SQLException;
}
