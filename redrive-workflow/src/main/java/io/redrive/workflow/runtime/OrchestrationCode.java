package io.redrive.workflow.runtime;

import io.redrive.workflow.Orchestration;
import java.lang.reflect.Type;
import java.util.Optional;

/**
 * A registered orchestration as a turn runs it: its code, typed loosely so the runtime can call it
 * with what it decoded, and the type its input decodes to.
 */
public record OrchestrationCode(Orchestration<Object, Object> code, Type inputType) {

  /** Finds the code of {@code name@version} on this node (the registry's, for the runtime). */
  @FunctionalInterface
  public interface Lookup {
    Optional<OrchestrationCode> find(String name, String version);
  }
}
