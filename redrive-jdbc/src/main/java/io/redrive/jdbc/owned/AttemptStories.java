package io.redrive.jdbc.owned;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.message.HistoryEntry;
import java.util.List;

/**
 * A message's attempt story as JSON, in the one shape both sides write: the poison snapshot's
 * {@code history} (queue side) and an ended activity's {@code attempts} (workflow side), which the
 * workflow runtime copies into its history as is. Stateless.
 */
public final class AttemptStories {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private AttemptStories() {}

  /** {@code history}, oldest first, one object per entry. */
  public static ArrayNode json(List<HistoryEntry> history) {
    ArrayNode h = MAPPER.createArrayNode();
    for (HistoryEntry e : history) {
      ObjectNode en = h.addObject();
      en.put("attempt", e.attempt());
      en.put("outcome", e.outcome().name());
      en.put("worker", e.worker());
      en.put("leasedAt", e.leasedAt() == null ? null : e.leasedAt().toString());
      en.put("settledAt", e.settledAt() == null ? null : e.settledAt().toString());
      if (e.failure() != null) {
        en.put("reason", e.failure().reason().name());
        en.put("error", e.failure().message());
      }
      en.put("note", e.note());
    }
    return h;
  }
}
