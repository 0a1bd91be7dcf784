package io.redrive.spring;

import io.redrive.Redrive;
import io.redrive.objective.Objective;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Saves the objectives of {@code redrive.objectives.*} on start (as the server does for
 * redrive.toml's {@code [objectives.<name>]}): each replaces the one of its name, its counts kept;
 * none is deleted from properties. Every objective is read before any is saved, so a bad value
 * stops the application, naming {@code redrive.objectives.<name>}, before any objective changes.
 */
final class ObjectiveDeclarations {
  private ObjectiveDeclarations() {}

  static void declare(Redrive redrive, Map<String, ObjectiveProperties> properties) {
    List<Objective> objectives = new ArrayList<>();
    properties.forEach(
        (name, o) -> {
          try {
            objectives.add(objective(name, o));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "redrive.objectives." + name + ": " + e.getMessage());
          }
        });
    objectives.forEach(redrive.objectives()::save);
  }

  private static Objective objective(String name, ObjectiveProperties o) {
    if (o.getKind() == null) {
      throw new IllegalArgumentException("kind: is required (latency or age)");
    }
    if (o.getTarget() == null) {
      throw new IllegalArgumentException("target: is required (a share such as 0.95)");
    }
    return new Objective(
        name,
        o.getQueue(),
        o.getType(),
        o.getStream(),
        Objective.kind(o.getKind()),
        o.getTarget(),
        o.getBound(),
        o.getWindow());
  }
}
