package io.redrive.workflow;

/**
 * The runtime's suspension signal: thrown by {@link Task#await()} when the awaited result is not in
 * history yet, so the orchestration's stack unwinds and the turn commits what the code scheduled.
 * An {@link Error} so that {@code catch (Exception e)} does not swallow it. <strong>Never catch
 * it</strong>: code that does (catching {@code Throwable}) still suspends, because every later
 * context call throws it again and the method's return value is ignored.
 */
public final class TurnSuspended extends Error {
  private static final long serialVersionUID = 1L;

  /** Made by the runtime only; carries no stack trace (it is control flow, not a problem). */
  public TurnSuspended(String message) {
    super(message, null, false, false);
  }
}
