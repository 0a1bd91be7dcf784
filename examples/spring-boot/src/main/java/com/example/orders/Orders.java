package com.example.orders;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places orders: the order row and its confirmation email commit or roll back together. */
@Service
public class Orders {
  private final JdbcTemplate jdbc;
  private final Redrive redrive;

  public Orders(JdbcTemplate jdbc, Redrive redrive) {
    this.jdbc = jdbc;
    this.redrive = redrive;
  }

  /** Inserts the order and enqueues its email; when {@code paymentFails}, throws after both. */
  @Transactional
  public void place(String orderId, String customer, boolean paymentFails) {
    jdbc.update("INSERT INTO orders (id, customer) VALUES (?, ?)", orderId, customer);
    redrive.enqueue(
        NewMessage.builder("emails", "order-placed")
            .payload("{\"order\":\"" + orderId + "\"}")
            .dedupeKey("order-placed:" + orderId)
            .build());
    if (paymentFails) {
      throw new IllegalStateException("payment declined for " + orderId);
    }
  }
}
