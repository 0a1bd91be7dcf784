package io.redrive.workflow.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.workflow.ActivityRegistration;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a queued activity ({@link ActivityHandler}) and a local one ({@link LocalActivities}) do
 * alike: decode the input as the registration's type, and run the code under a timeout that
 * interrupts its thread. One piece, so that the two kinds cannot drift apart in what they tell the
 * user.
 */
final class ActivityInvocation {
  private ActivityInvocation() {}

  /** Reads an input as a given type; the queued kind reads the payload text, the local a tree. */
  @FunctionalInterface
  interface InputReader {
    Object read(JavaType type) throws IOException;
  }

  /** An input that does not decode; another try would not decode it either. */
  static final class UndecodableInput extends Exception {
    private static final long serialVersionUID = 1L;

    UndecodableInput(String message) {
      super(message, null, false, false);
    }
  }

  /** The input as {@code registration}'s type, or why it is not one. */
  static Object input(ObjectMapper mapper, ActivityRegistration registration, InputReader reader)
      throws UndecodableInput, IOException {
    try {
      return reader.read(mapper.getTypeFactory().constructType(registration.inputType()));
    } catch (JsonProcessingException | IllegalArgumentException e) {
      String cause =
          e instanceof JsonProcessingException
              ? ((JsonProcessingException) e).getOriginalMessage()
              : e.getMessage();
      throw new UndecodableInput(
          "activity "
              + registration.name()
              + " input does not decode as "
              + registration.inputType().getTypeName()
              + ": "
              + cause);
    }
  }

  /**
   * How a run under a timeout ended: a value, the code's throw, or cut off by the timeout (then
   * what the code answered or threw afterwards is not its result, and both are null).
   */
  record Ending(Object value, Exception thrown, boolean timedOut) {}

  /**
   * Runs {@code code} on this thread, interrupting it when {@code timeout} passes; the interrupt is
   * cleared again before this returns, so the thread goes on to report the timeout.
   */
  static Ending within(ScheduledExecutorService alarms, Duration timeout, Callable<?> code) {
    Thread runner = Thread.currentThread();
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledFuture<?> alarm =
        alarms.schedule(
            () -> {
              timedOut.set(true);
              runner.interrupt();
            },
            timeout.toMillis(),
            TimeUnit.MILLISECONDS);
    Object value = null;
    Exception thrown = null;
    try {
      value = code.call();
    } catch (Exception e) {
      thrown = e;
    } finally {
      alarm.cancel(false);
      if (timedOut.get()) {
        Thread.interrupted();
      }
    }
    return timedOut.get() ? new Ending(null, null, true) : new Ending(value, thrown, false);
  }
}
