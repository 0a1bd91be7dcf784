package io.redrive.workflow;

/**
 * An activity's code: the unit of side effects (I/O, database, calls to other systems) an
 * orchestration schedules. It runs as a message of a workflow-owned queue, so a delivery can repeat
 * after a crash or an expired lease: make it idempotent, e.g. with {@link
 * ActivityContext#idempotencyKey()}.
 *
 * <p>Returning ends the call with the result (serialized as JSON); throwing ends it with an
 * application failure that the call's {@link RetryPolicy} may retry and the orchestration can
 * catch. Called from worker threads, possibly concurrently for different calls.
 *
 * @param <I> the input type (deserialized from JSON)
 * @param <O> the result type (serialized to JSON)
 */
@FunctionalInterface
public interface Activity<I, O> {
  O run(ActivityContext ctx, I input) throws Exception;
}
