package io.redrive.trace;

import io.redrive.message.NewMessage;
import java.util.List;
import java.util.Map;

/** {@link MessageTracing#NONE}: one stateless instance of every part, doing nothing. */
enum NoTracing implements MessageTracing, PublishTrace, HandlerTrace, TurnTrace, TraceScope {
  INSTANCE;

  @Override
  public PublishTrace publish(List<NewMessage> messages) {
    return this;
  }

  @Override
  public HandlerTrace process(Delivery delivery) {
    return this;
  }

  @Override
  public PublishTrace startInstance(WorkflowStart start) {
    return this;
  }

  @Override
  public TurnTrace turn(WorkflowTurn turn) {
    return this;
  }

  @Override
  public TurnTrace localActivity(String name, long seq, int attempt) {
    return this;
  }

  @Override
  public Map<String, String> headers() {
    return Map.of();
  }

  @Override
  public void end(List<String> ids, RuntimeException error) {}

  @Override
  public TraceScope activate() {
    return this;
  }

  @Override
  public void event(DeliveryEvent event) {}

  @Override
  public void failed(Throwable error) {}

  @Override
  public void failed(String reason, String message) {}

  @Override
  public void end() {}

  @Override
  public void close() {}
}
