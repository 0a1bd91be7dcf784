package io.redrive.server.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What {@code /openapi.json} says of one field of a request or response record beyond its Java
 * type: whether a request must give it, whether a response may carry null, and its real bounds.
 * Validation itself stays in the engine and {@link RequestBodies}; this only describes it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
@interface ApiField {
  /** A request must give the field. */
  boolean required() default false;

  /** The value may be null (in a response; in a request, null has a meaning, e.g. clears). */
  boolean nullable() default false;

  /** Smallest allowed number, when {@link #bounded()}. */
  long min() default 0;

  /** Largest allowed number, or {@link Long#MAX_VALUE} for none. */
  long max() default Long.MAX_VALUE;

  /** False for numbers that may be negative or fractional without a lower bound. */
  boolean bounded() default true;

  /** Regular expression a string must match, or empty. */
  String pattern() default "";

  /** Longest string, or 0 for no limit. */
  int maxLength() default 0;

  /** Fewest array items, or 0. */
  int minItems() default 0;

  /** Most array items, or 0 for no limit. */
  int maxItems() default 0;

  /** The allowed string values, or empty for any. */
  String[] values() default {};

  /** A string format: {@code date-time} and {@code duration} are used. */
  String format() default "";

  /** One line for the document, or empty. */
  String description() default "";
}
