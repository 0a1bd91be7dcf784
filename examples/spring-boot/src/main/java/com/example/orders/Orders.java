package com.example.orders;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Places orders: the order row, its confirmation email and its fulfilment workflow commit or roll
 * back together.
 */
@Service
public class Orders {
  private final JdbcTemplate jdbc;
  private final Redrive redrive;
  private final WorkflowClient workflows;

  public Orders(JdbcTemplate jdbc, Redrive redrive, WorkflowClient workflows) {
    this.jdbc = jdbc;
    this.redrive = redrive;
    this.workflows = workflows;
  }

  /**
   * Inserts the order, enqueues its email and starts its fulfilment; when {@code paymentFails},
   * throws after all three, and none of them happened.
   */
  @Transactional
  public void place(String orderId, String customer, boolean paymentFails) {
    jdbc.update("INSERT INTO orders (id, customer) VALUES (?, ?)", orderId, customer);
    redrive.enqueue(
        NewMessage.builder("emails", "order-placed")
            .payload("{\"order\":\"" + orderId + "\"}")
            .dedupeKey("order-placed:" + orderId)
            .build());
    workflows.start(StartRequest.of("fulfil-order", orderId).withInstanceId("fulfil-" + orderId));
    if (paymentFails) {
      throw new IllegalStateException("payment declined for " + orderId);
    }
  }
}
