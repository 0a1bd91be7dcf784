package io.redrive.spring;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;

/** The three ways an application enqueues inside a Spring transaction (issue 29's matrix). */
final class EnqueueWays {
  static final String PLAIN = "plain";
  static final String TRANSACTION_CONNECTION = "transaction connection";
  static final String POOL_CONNECTION = "pool connection";
  static final String[] ALL = {PLAIN, TRANSACTION_CONNECTION, POOL_CONNECTION};

  private EnqueueWays() {}

  /** Enqueues an order-placed email to {@code queue} the way {@code way} names. */
  static void enqueue(String way, Redrive redrive, DataSource ds, String queue) {
    NewMessage email = NewMessage.builder(queue, "order-placed").payload("{}").build();
    switch (way) {
      case PLAIN -> redrive.enqueue(email);
      case TRANSACTION_CONNECTION -> redrive.enqueue(DataSourceUtils.getConnection(ds), email);
      case POOL_CONNECTION -> {
        try (Connection c = ds.getConnection()) {
          redrive.enqueue(c, email);
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      }
      default -> throw new IllegalArgumentException("way: " + way);
    }
  }
}
