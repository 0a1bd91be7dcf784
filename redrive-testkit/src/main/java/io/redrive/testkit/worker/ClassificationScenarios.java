package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.message.Message;
import io.redrive.worker.FailureClassifier;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerRegistration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a handler's throw does to its message: it is classified by {@link
 * FailureClassifier#defaults()}, the worker's classifier or the type's own, and retried or
 * dead-lettered by the reason's default.
 */
public abstract class ClassificationScenarios extends WorkerScenarioBase {

  /** Thrown by handlers; the default classifier finds the word Validation in its name. */
  static final class OrderValidationException extends RuntimeException {
    OrderValidationException(String message) {
      super(message);
    }
  }

  /** The default classifier finds the word Deserializ in its name. */
  static final class PayloadDeserializationException extends RuntimeException {
    PayloadDeserializationException(String message) {
      super(message);
    }
  }

  /** An application exception the defaults do not know (HANDLER_EXCEPTION). */
  static final class PaymentDeclinedException extends RuntimeException {
    PaymentDeclinedException(String message) {
      super(message);
    }
  }

  private void run(Handler handler) {
    start(worker().concurrency(2).handler(TYPE, handler));
  }

  @Test
  void handler_throwsValidationException_deadAtOnceAsValidationFailure() {
    createQueue(fastPolicy());
    String id = enqueue(TYPE);

    run(
        ctx -> {
          throw new OrderValidationException("quantity must be positive");
        });

    Message dead = awaitDead(id);
    assertThat(dead.attempts()).isEqualTo(1);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    FailureRecord error = dead.lastError();
    assertThat(error.retryable()).isFalse();
    assertThat(error.message())
        .contains(OrderValidationException.class.getName())
        .contains("quantity must be positive");
    assertThat(error.stackTrace()).contains("OrderValidationException");
  }

  @Test
  void handler_throwsDeserializationException_deadAtOnceAsSerializationError() {
    createQueue(fastPolicy());
    String id = enqueue(TYPE);

    run(
        ctx -> {
          throw new PayloadDeserializationException("unexpected token at 1:7");
        });

    Message dead = awaitDead(id);
    assertThat(dead.attempts()).isEqualTo(1);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.SERIALIZATION_ERROR);
  }

  @Test
  void handler_throwsIOException_retriedAsTransportUnavailable() {
    createQueue(fastPolicy());
    AtomicInteger calls = new AtomicInteger();
    String id = enqueue(TYPE);

    run(
        ctx -> {
          if (calls.incrementAndGet() < 3) {
            throw new IOException("connection reset");
          }
          throw new UncheckedIOException(new IOException("connection reset again"));
        });

    Message dead = awaitDead(id);
    assertThat(calls).hasValue(3);
    assertThat(failedReasons(dead))
        .containsExactly(
            FailureReason.TRANSPORT_UNAVAILABLE,
            FailureReason.TRANSPORT_UNAVAILABLE,
            FailureReason.TRANSPORT_UNAVAILABLE);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.TRANSPORT_UNAVAILABLE);
  }

  @Test
  void handler_throwsUnknownException_retriedAsHandlerException() {
    createQueue(fastPolicy());
    AtomicInteger calls = new AtomicInteger();
    String id = enqueue(TYPE);

    run(
        ctx -> {
          calls.incrementAndGet();
          throw new IllegalStateException("bug");
        });

    Message dead = awaitDead(id);
    assertThat(calls).hasValue(3);
    assertThat(failedReasons(dead)).containsOnly(FailureReason.HANDLER_EXCEPTION).hasSize(3);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
  }

  @Test
  void handler_throwsError_attemptStillRecorded() {
    createQueue(fastPolicy().withMaxAttempts(1));
    String id = enqueue(TYPE);

    run(
        ctx -> {
          throw new StackOverflowError("deep recursion");
        });

    Message dead = awaitDead(id);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(dead.lastError().message()).contains("StackOverflowError");
  }

  @Test
  void workerClassifier_customMapping_appliesAlsoToWrappedCause() {
    createQueue(fastPolicy());
    String direct = enqueue(TYPE, "direct");
    String wrapped = enqueue(TYPE, "wrapped");
    FailureClassifier classifier =
        FailureClassifier.defaults()
            .with(PaymentDeclinedException.class, FailureReason.VALIDATION_FAILURE);

    start(
        worker()
            .classifier(classifier)
            .handler(
                TYPE,
                ctx -> {
                  PaymentDeclinedException declined = new PaymentDeclinedException("card expired");
                  if (ctx.payload().equals("direct")) {
                    throw declined;
                  }
                  throw new IllegalStateException("charge failed", declined);
                }));

    for (String id : List.of(direct, wrapped)) {
      Message dead = awaitDead(id);
      assertThat(dead.attempts()).as("attempts of %s", dead.payload()).isEqualTo(1);
      assertThat(dead.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    }
  }

  @Test
  void typeClassifier_overridesWorkerClassifierForItsTypeOnly() {
    createQueue(fastPolicy());
    String own = enqueue("charge");
    String other = enqueue("refund");
    Handler declines =
        ctx -> {
          throw new PaymentDeclinedException("card expired");
        };

    start(
        worker()
            .handler(
                HandlerRegistration.of("charge", declines)
                    .withClassifier(
                        FailureClassifier.defaults()
                            .with(
                                PaymentDeclinedException.class, FailureReason.VALIDATION_FAILURE)))
            .handler("refund", declines));

    Message ownDead = awaitDead(own);
    assertThat(ownDead.attempts()).isEqualTo(1);
    assertThat(ownDead.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    Message otherDead = awaitDead(other);
    assertThat(otherDead.attempts()).isEqualTo(3);
    assertThat(otherDead.deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
  }
}
