package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.api.AbstractThrowableAssert;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

/** Why an application context failed to start: the root cause, to check its message. */
final class StartFailures {
  private StartFailures() {}

  static AbstractThrowableAssert<?, ? extends Throwable> rootCauseOf(
      AssertableApplicationContext context) {
    return assertThat(context).hasFailed().getFailure().rootCause();
  }
}
