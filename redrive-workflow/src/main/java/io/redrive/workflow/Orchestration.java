package io.redrive.workflow;

/**
 * An orchestration's code: replayed from its history on every turn, so it must be deterministic
 * (docs/workflows.md, the determinism rules) and do its side effects through activities. Returning
 * completes the instance with the output; throwing an {@link Exception} fails it
 * (ORCHESTRATION_EXCEPTION, not retried). Never catch {@link Throwable} or {@link Error}: the
 * runtime suspends a turn with an {@code Error}.
 *
 * @param <I> the input type (deserialized from JSON)
 * @param <O> the output type (serialized to JSON)
 */
@FunctionalInterface
public interface Orchestration<I, O> {
  O run(OrchestrationContext ctx, I input) throws Exception;
}
