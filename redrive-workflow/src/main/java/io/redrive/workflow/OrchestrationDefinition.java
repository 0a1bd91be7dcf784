package io.redrive.workflow;

import java.lang.reflect.Type;

/**
 * One registered version of an orchestration: its code and the types its input and output are read
 * and written as. {@code name@version} is how it is shown. Immutable; created by {@link
 * WorkflowRegistry.Builder}.
 *
 * @param name the orchestration's name: 1–200 characters, no control characters, no {@code @}
 * @param version {@code MAJOR.MINOR.PATCH}
 * @param inputType the type its input JSON is read as
 * @param outputType the type its output is written as
 * @param code the orchestration, typed loosely so the runtime can call it with what it deserialized
 */
record OrchestrationDefinition(
    String name,
    String version,
    Type inputType,
    Type outputType,
    Orchestration<Object, Object> code) {

  /**
   * @throws IllegalArgumentException naming the option and value when one is missing or malformed
   */
  OrchestrationDefinition {
    WorkflowRegistry.requireName("orchestration name", name);
    if (name.indexOf('@') >= 0) {
      // name@version is the display form (CLI, logs, metrics): an '@' in the name makes it
      // ambiguous.
      throw new IllegalArgumentException(
          "orchestration name: must not contain '@', was \"" + name + "\"");
    }
    try {
      Semver.parse("version", version);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + " (orchestration \"" + name + "\")", e);
    }
    if (inputType == null) {
      throw new IllegalArgumentException("inputType: is required for " + name + "@" + version);
    }
    if (outputType == null) {
      throw new IllegalArgumentException("outputType: is required for " + name + "@" + version);
    }
    if (code == null) {
      throw new IllegalArgumentException("code: is required for " + name + "@" + version);
    }
  }
}
