package io.redrive.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Registers a bean that is an {@link io.redrive.workflow.Orchestration} under a name and version;
 * its input and output types come from the class's type arguments. The starter runs a {@link
 * io.redrive.workflow.WorkflowRuntime} for the orchestrations and activities it finds
 * (docs/spring-boot.md, "Workflows").
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RedriveOrchestration {
  /** The orchestration's name, as a start names it. */
  String name();

  /** Its version, MAJOR.MINOR.PATCH (docs/workflows.md, "Versions"). */
  String version() default "1.0.0";
}
