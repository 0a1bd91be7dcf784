package com.example.orders;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.spring.RedriveHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Sends the confirmation emails (here: records them), one message at a time. */
@Component
public class Emails {
  private final JdbcTemplate jdbc;
  private final ObjectMapper json = new ObjectMapper();

  public Emails(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @RedriveHandler(queue = "emails", type = "order-placed")
  @Transactional
  public void orderPlaced(String payload) throws Exception {
    String order = json.readTree(payload).get("order").asText();
    // Idempotent: a message delivered again after a crash records the email once.
    jdbc.update("INSERT INTO sent_emails (order_id) VALUES (?) ON CONFLICT DO NOTHING", order);
  }
}
