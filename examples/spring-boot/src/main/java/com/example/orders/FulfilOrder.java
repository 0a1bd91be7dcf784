package com.example.orders;

import io.redrive.spring.RedriveOrchestration;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.OrchestrationContext;
import org.springframework.stereotype.Component;

/** Fulfils an order: reserves its stock through an activity, then ends with the order's id. */
@Component
@RedriveOrchestration(name = "fulfil-order")
public class FulfilOrder implements Orchestration<String, String> {
  @Override
  public String run(OrchestrationContext ctx, String orderId) throws Exception {
    ctx.callActivity("reserve-stock", orderId, String.class).await();
    return orderId;
  }
}
