package io.redrive.worker;

import io.redrive.failure.Dependencies;

/**
 * Thrown by a handler whose work failed against a dependency it names ({@code smtp}, {@code
 * payments-api}, a host): classified as DEPENDENCY_FAILURE by the default classifier, and, on a
 * queue with a circuit breaker, counted toward that dependency's circuit (see {@link
 * HandlerResult#failAgainst} for the same without an exception). Found anywhere in the cause chain.
 */
public class DependencyFailureException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What the work failed against. */
  private final String dependency;

  /**
   * @throws IllegalArgumentException when {@code dependency} is blank or longer than 200 characters
   */
  public DependencyFailureException(String dependency, String message, Throwable cause) {
    super(message, cause);
    if (dependency == null) {
      throw new IllegalArgumentException("dependency: is required");
    }
    this.dependency = Dependencies.require("dependency", dependency);
  }

  public DependencyFailureException(String dependency, String message) {
    this(dependency, message, null);
  }

  /** What the work failed against. */
  public String dependency() {
    return dependency;
  }
}
