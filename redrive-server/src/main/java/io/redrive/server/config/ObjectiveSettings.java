package io.redrive.server.config;

import io.redrive.objective.Objective;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code [objectives.<name>]} tables into {@link Objective}s (docs/configuration.md): the
 * fields of {@code PUT /v1/objectives/{name}}.
 */
final class ObjectiveSettings {
  static final List<String> FIELDS =
      List.of("queue", "type", "stream", "kind", "target", "bound", "window");

  private ObjectiveSettings() {}

  /** The declared objectives in file order; {@code objectives} may be absent. */
  static List<Objective> read(ConfigNode objectives) {
    List<Objective> out = new ArrayList<>();
    if (!objectives.present()) {
      return out;
    }
    for (Map.Entry<String, ConfigNode> e : objectives.entries().entrySet()) {
      ConfigNode o = e.getValue();
      o.requireTable();
      o.allowOnly(FIELDS);
      for (String required : List.of("queue", "kind", "target", "bound")) {
        if (!o.child(required).present()) {
          throw o.error("needs " + required);
        }
      }
      try {
        out.add(
            new Objective(
                e.getKey(),
                o.child("queue").string(),
                o.child("type").present() ? o.child("type").string() : null,
                o.child("stream").present() ? o.child("stream").string() : null,
                Objective.kind(o.child("kind").string()),
                o.child("target").number(),
                o.child("bound").duration(),
                o.child("window").present() ? o.child("window").duration() : Objective.MAX_WINDOW));
      } catch (ConfigException ex) {
        throw ex; // names its setting already
      } catch (IllegalArgumentException ex) {
        throw o.errorAtField(ex);
      }
    }
    return out;
  }
}
