package io.redrive.workflow.replay;

import io.redrive.workflow.Task;
import io.redrive.workflow.history.HistoryEvent;

/**
 * What every task of a run shares: PENDING until history ends it, then SUCCEEDED with a value or
 * FAILED with an exception, and where in history that happened (which {@code anyOf} compares). One
 * run, one thread.
 */
abstract class BaseTask<T> implements Task<T>, Positioned {
  enum State {
    PENDING,
    SUCCEEDED,
    FAILED
  }

  final RunState run;
  final Long seq;
  State state = State.PENDING;
  T value;
  RuntimeException failure;
  int position;

  BaseTask(RunState run, Long seq) {
    this.run = run;
    this.seq = seq;
  }

  /** Takes the history event that ends (or moves) this task. */
  abstract void resolve(HistoryEvent e, int position);

  final void succeed(T result, int at) {
    state = State.SUCCEEDED;
    value = result;
    position = at;
  }

  final void fail(RuntimeException error, int at) {
    state = State.FAILED;
    failure = error;
    position = at;
  }

  @Override
  public T await() {
    run.awaitDone(this);
    if (failure != null) {
      throw failure;
    }
    return value;
  }

  @Override
  public boolean isDone() {
    return state != State.PENDING;
  }

  @Override
  public int position() {
    return position;
  }
}
