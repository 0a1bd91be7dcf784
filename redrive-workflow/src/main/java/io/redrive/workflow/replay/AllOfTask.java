package io.redrive.workflow.replay;

import io.redrive.workflow.AllOfFailedException;
import io.redrive.workflow.Task;
import io.redrive.workflow.WorkflowException;
import java.util.ArrayList;
import java.util.List;

/** {@code allOf}: done when every part is; results in argument order, or every failure. */
final class AllOfTask<T> implements Task<List<T>> {
  private final RunState run;
  private final List<Task<T>> parts;

  AllOfTask(RunState run, List<Task<T>> parts) {
    this.run = run;
    this.parts = parts;
  }

  @Override
  public List<T> await() {
    run.awaitAll(this::isDone);
    List<T> results = new ArrayList<>();
    List<WorkflowException> failures = new ArrayList<>();
    WorkflowException first = null;
    for (Task<T> part : parts) {
      try {
        results.add(part.await());
        failures.add(null);
      } catch (WorkflowException e) {
        results.add(null);
        failures.add(e);
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw new AllOfFailedException(first.failure(), failures);
    }
    return results;
  }

  @Override
  public boolean isDone() {
    return parts.stream().allMatch(Task::isDone);
  }
}
