package io.redrive.workflow.history;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One delivery of an activity's message, from the attempt story its result carries into history
 * (ACTIVITY_COMPLETED / ACTIVITY_FAILED {@code attempts}, written by the store).
 *
 * @param at when it ended (or, if it did not, began); null when the store recorded neither
 * @param attempt its attempt number, or null
 * @param worker who ran it, or null
 * @param outcome how it ended (e.g. FAILED, LEASE_EXPIRED, ABANDONED)
 * @param reason the failure reason, or null
 * @param error the failure message, or null
 */
public record Delivery(
    Instant at, Integer attempt, String worker, String outcome, String reason, String error) {

  /** The deliveries of an attempt story (an array; anything else holds none). */
  public static List<Delivery> of(JsonNode attempts) {
    List<Delivery> out = new ArrayList<>();
    if (attempts == null || !attempts.isArray()) {
      return out;
    }
    for (JsonNode a : attempts) {
      Instant at = instant(a.path("settledAt"));
      out.add(
          new Delivery(
              at != null ? at : instant(a.path("leasedAt")),
              a.path("attempt").isNumber() ? a.path("attempt").asInt() : null,
              text(a.path("worker")),
              text(a.path("outcome")),
              text(a.path("reason")),
              text(a.path("error"))));
    }
    return out;
  }

  private static Instant instant(JsonNode n) {
    return n.isTextual() ? Instant.parse(n.asText()) : null;
  }

  private static String text(JsonNode n) {
    return n.isTextual() ? n.asText() : null;
  }
}
