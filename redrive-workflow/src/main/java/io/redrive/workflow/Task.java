package io.redrive.workflow;

/**
 * The result of a durable call, usable only inside the turn that made it.
 *
 * @param <T> the result type
 */
public interface Task<T> {
  /**
   * The result: the recorded value, or the recorded failure thrown as {@link
   * ActivityFailedException} or {@link SubOrchestrationFailedException}; when the result is not in
   * history yet, the turn suspends here (an {@link Error} that code must not catch) and the
   * orchestration runs again once it arrives.
   */
  T await();

  /** True when the result is in history (awaiting it will not suspend). */
  boolean isDone();
}
