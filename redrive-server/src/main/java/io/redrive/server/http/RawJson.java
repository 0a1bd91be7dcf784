package io.redrive.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One JSON value kept as the exact text the producer sent (numbers like {@code 1.10} or {@code
 * 1e2}, key order, escapes and spacing unchanged), so that signatures over a payload survive the
 * round trip. Read from a request body by cutting the value's bytes out of the body; written back
 * with {@link JsonGenerator#writeRawValue(String)}.
 *
 * @param text the JSON text of one value
 */
@JsonSerialize(using = RawJson.Writer.class)
@JsonDeserialize(using = RawJson.Reader.class)
record RawJson(String text) {
  /**
   * The JSON text of an optional field, or null when it was absent or JSON {@code null} (the reader
   * answers both as the text {@code null}).
   */
  static String textOrNull(RawJson value) {
    return value == null || value.text().equals("null") ? null : value.text();
  }

  /** The deserialization attribute holding the request body the parser reads. */
  static final String SOURCE = "redrive.rawJson.source";

  /** Writes the text as it is. */
  static final class Writer extends JsonSerializer<RawJson> {
    @Override
    public void serialize(RawJson value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      gen.writeRawValue(value.text());
    }
  }

  /**
   * Cuts the current value out of the request body (given as the {@link #SOURCE} attribute); the
   * parser still checks the value is well-formed JSON. Without the body (a value converted from a
   * tree), the value is written out from its tree.
   */
  static final class Reader extends JsonDeserializer<RawJson> {
    @Override
    public RawJson deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      Object source = ctxt.getAttribute(SOURCE);
      long start = p.currentTokenLocation().getByteOffset();
      if (!(source instanceof byte[] body) || start < 0 || start >= body.length) {
        JsonNode tree = p.readValueAsTree();
        return new RawJson(tree.toString());
      }
      JsonToken token = p.currentToken();
      if (token.isStructStart()) {
        p.skipChildren();
      } else {
        p.getText(); // completes a string token, so malformed text fails here
      }
      int end = endOfValue(body, (int) start);
      return new RawJson(new String(body, (int) start, end - (int) start, StandardCharsets.UTF_8));
    }

    @Override
    public RawJson getNullValue(DeserializationContext ctxt) {
      return new RawJson("null");
    }
  }

  /**
   * The index just past the JSON value starting at {@code start} in {@code json}, which the parser
   * has already found well-formed.
   */
  static int endOfValue(byte[] json, int start) {
    byte first = json[start];
    if (first == '"') {
      return endOfString(json, start);
    }
    if (first == '{' || first == '[') {
      int depth = 0;
      int i = start;
      while (i < json.length) {
        byte b = json[i];
        if (b == '"') {
          i = endOfString(json, i);
          continue;
        }
        if (b == '{' || b == '[') {
          depth++;
        } else if (b == '}' || b == ']') {
          depth--;
          if (depth == 0) {
            return i + 1;
          }
        }
        i++;
      }
      return json.length;
    }
    int i = start;
    while (i < json.length && !delimiter(json[i])) {
      i++;
    }
    return i;
  }

  private static int endOfString(byte[] json, int quote) {
    int i = quote + 1;
    while (i < json.length) {
      if (json[i] == '\\') {
        i += 2;
      } else if (json[i] == '"') {
        return i + 1;
      } else {
        i++;
      }
    }
    return json.length;
  }

  private static boolean delimiter(byte b) {
    return b == ',' || b == '}' || b == ']' || b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }
}
