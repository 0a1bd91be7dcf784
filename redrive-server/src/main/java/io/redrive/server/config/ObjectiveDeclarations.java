package io.redrive.server.config;

import io.redrive.Redrive;
import io.redrive.objective.Objective;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies the declared objectives of a {@link ServerConfig} at start (after the declared queues):
 * each is saved, replacing the one of its name (its counts kept); objectives are never deleted by
 * the file.
 */
public final class ObjectiveDeclarations {
  private ObjectiveDeclarations() {}

  /**
   * Saves every objective of {@code config}; returns the log line ({@code declared objectives:
   * [...]}), or null when the file declares none.
   */
  public static String apply(Redrive redrive, ServerConfig config) {
    if (config.objectives().isEmpty()) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (Objective o : config.objectives()) {
      try {
        redrive.objectives().save(o);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("objectives." + o.name() + ": " + e.getMessage(), e);
      }
      names.add(o.name());
    }
    return "declared objectives: " + names;
  }
}
