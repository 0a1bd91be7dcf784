package io.redrive.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a bean's method (or a bean that is an {@link io.redrive.worker.Handler}) the handler of one
 * message type of one queue. The starter runs one worker per queue for the handlers it finds
 * (docs/spring-boot.md, "Handlers"). A method takes a {@link io.redrive.worker.HandlerContext}, the
 * payload as a {@code String}, or nothing, and returns a {@link io.redrive.worker.HandlerResult} or
 * nothing (then a normal return completes the message); what it throws fails the message.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RedriveHandler {
  /** The queue whose worker leases the messages (declared with default policy when missing). */
  String queue();

  /** The message type this handler runs. */
  String type();
}
