package io.redrive.workflow.replay;

/**
 * Control flow inside a run that user code must not stop: a replay mismatch, or continue-as-new. An
 * {@link Error} so {@code catch (Exception e)} lets it pass; the run records its cause before
 * throwing, so even code that catches {@code Throwable} cannot undo it.
 */
final class ReplaySignal extends Error {
  private static final long serialVersionUID = 1L;

  ReplaySignal(String message) {
    super(message, null, false, false);
  }
}
