package io.redrive.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Registers a bean that is an {@link io.redrive.workflow.Activity} under a name; its input and
 * result types come from the class's type arguments.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RedriveActivity {
  /** The activity's name, as an orchestration calls it. */
  String name();
}
