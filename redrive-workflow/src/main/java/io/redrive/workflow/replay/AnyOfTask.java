package io.redrive.workflow.replay;

import io.redrive.workflow.Task;
import java.util.List;

/** {@code anyOf}: done when a part is; the winner is the part whose end comes first in history. */
final class AnyOfTask implements Task<Task<?>> {
  private final RunState run;
  private final List<? extends Task<?>> parts;

  AnyOfTask(RunState run, List<? extends Task<?>> parts) {
    this.run = run;
    this.parts = parts;
  }

  @Override
  public Task<?> await() {
    run.awaitAll(this::isDone);
    Task<?> winner = null;
    int best = Integer.MAX_VALUE;
    for (Task<?> part : parts) {
      if (part.isDone() && positionOf(part) < best) {
        best = positionOf(part);
        winner = part;
      }
    }
    return winner;
  }

  @Override
  public boolean isDone() {
    return parts.stream().anyMatch(Task::isDone);
  }

  private static int positionOf(Task<?> task) {
    return task instanceof Positioned p ? p.position() : Integer.MAX_VALUE - 1;
  }
}
