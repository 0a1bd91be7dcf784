package com.example.orders;

import io.redrive.spring.RedriveActivity;
import io.redrive.workflow.Activity;
import io.redrive.workflow.ActivityContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Reserves an order's stock (here: records it), idempotently. */
@Component
@RedriveActivity(name = "reserve-stock")
public class ReserveStock implements Activity<String, String> {
  private final JdbcTemplate jdbc;

  public ReserveStock(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public String run(ActivityContext ctx, String orderId) {
    jdbc.update("INSERT INTO reservations (order_id) VALUES (?) ON CONFLICT DO NOTHING", orderId);
    return orderId;
  }
}
