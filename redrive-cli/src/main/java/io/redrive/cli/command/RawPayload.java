package io.redrive.cli.command;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.redrive.cli.client.ApiClient;
import java.io.IOException;

/**
 * The payload of the first leased message, cut out of the lease answer's text rather than
 * re-written from a tree, so a command gets the JSON exactly as the server sent it ({@code 1.10}
 * stays {@code 1.10}, {@code 1e2} stays {@code 1e2}).
 */
final class RawPayload {
  private RawPayload() {}

  /**
   * The text of {@code messages[0].payload} in {@code answer}; empty when it is null or missing.
   *
   * @throws IllegalArgumentException when {@code answer} is not JSON
   */
  static String first(String answer) {
    try (JsonParser p = ApiClient.json().getFactory().createParser(answer)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return "";
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (!"messages".equals(field) || value != JsonToken.START_ARRAY) {
          p.skipChildren();
          continue;
        }
        if (p.nextToken() != JsonToken.START_OBJECT) {
          return "";
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          JsonToken token = p.nextToken();
          if ("payload".equals(name)) {
            return token == JsonToken.VALUE_NULL ? "" : cut(answer, p);
          }
          p.skipChildren();
        }
        return "";
      }
      return "";
    } catch (IOException e) {
      throw new IllegalArgumentException("the lease answer is not JSON: " + e.getMessage(), e);
    }
  }

  private static String cut(String answer, JsonParser p) throws IOException {
    int start = (int) p.currentTokenLocation().getCharOffset();
    if (p.currentToken().isStructStart()) {
      p.skipChildren();
    } else {
      p.finishToken(); // strings are read lazily: finish so the position is past the token
    }
    int end = (int) p.currentLocation().getCharOffset();
    return answer.substring(start, end).strip();
  }
}
