package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.output.Fields;

/** One line for a settle answer ({@code Settle} in docs/api.md): where the message went. */
final class Settles {
  private Settles() {}

  static String describe(String verb, JsonNode settle) {
    return describe(verb, settle, "");
  }

  /**
   * As {@link #describe(String, JsonNode)} with {@code detail} after the id ({@code " (exit 3)"}).
   */
  static String describe(String verb, JsonNode settle, String detail) {
    String id = Fields.text(settle, "id") + detail;
    String state = Fields.text(settle, "state", "");
    switch (state) {
      case "COMPLETED":
        return verb
            + " "
            + id
            + (settle.path("repeated").asBoolean(false)
                ? " (already: this lease had completed it)"
                : "");
      case "READY":
        return verb + " " + id + ": ready again";
      case "SCHEDULED":
        return verb + " " + id + ": retry at " + Fields.time(settle, "visibleAt");
      case "DEAD":
        String reason = Fields.text(settle, "deadReason", "?");
        if (settle.path("discarded").asBoolean(false)) {
          return verb + " " + id + ": dead (" + reason + "), discarded";
        }
        String dlq = Fields.text(settle, "deadLetterQueue");
        return verb
            + " "
            + id
            + ": dead ("
            + reason
            + ")"
            + (dlq == null ? ", kept in its queue" : ", moved to " + dlq);
      default:
        return verb + " " + id + ": " + state;
    }
  }
}
