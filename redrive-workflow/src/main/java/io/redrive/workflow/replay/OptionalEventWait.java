package io.redrive.workflow.replay;

import io.redrive.workflow.Task;
import java.util.Optional;

/** The optional view of an event wait with a timeout: empty when the timeout came first. */
final class OptionalEventWait<T> implements Task<Optional<T>>, Positioned {
  private final EventWait<T> event;

  OptionalEventWait(EventWait<T> event) {
    this.event = event;
  }

  @Override
  public Optional<T> await() {
    event.await();
    return event.timedOut ? Optional.empty() : Optional.ofNullable(event.value);
  }

  @Override
  public boolean isDone() {
    return event.isDone();
  }

  @Override
  public int position() {
    return event.position;
  }
}
