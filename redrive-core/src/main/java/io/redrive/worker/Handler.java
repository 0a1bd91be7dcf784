package io.redrive.worker;

/**
 * Runs one message of one type. Return a {@link HandlerResult} (usually {@link
 * HandlerResult#complete()}); throwing is a failure classified by the worker's {@link
 * FailureClassifier}. Called on a worker thread; may be called concurrently for different messages,
 * so implementations must be thread-safe. A handler past its timeout is interrupted.
 */
@FunctionalInterface
public interface Handler {
  HandlerResult handle(HandlerContext context) throws Exception;
}
