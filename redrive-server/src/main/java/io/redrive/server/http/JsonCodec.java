package io.redrive.server.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The server's one Jackson configuration: strict on input (unknown fields, duplicate keys, trailing
 * tokens and type coercions are errors), ISO-8601 instants on output. Thread-safe.
 */
final class JsonCodec {
  private final ObjectMapper mapper;

  JsonCodec() {
    ObjectMapper m =
        JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .build();
    for (LogicalType type :
        new LogicalType[] {LogicalType.Textual, LogicalType.Integer, LogicalType.Boolean}) {
      m.coercionConfigFor(type)
          .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    }
    // Strings stay strings; the loops above made every scalar shape fail, so re-allow the natural
    // ones.
    m.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.String, CoercionAction.TryConvert)
        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.TryConvert);
    m.coercionConfigFor(LogicalType.Integer)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.TryConvert);
    m.coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.TryConvert);
    this.mapper = m;
  }

  ObjectMapper mapper() {
    return mapper;
  }

  /**
   * Reads a request body as {@code type}; null for an empty body or {@code null}. Jackson's
   * exceptions propagate to the {@link ErrorMapper}.
   */
  <T> T read(byte[] body, Class<T> type) throws IOException {
    if (isBlank(body)) {
      return null;
    }
    return mapper.readValue(body, type);
  }

  <T> T convert(JsonNode node, Class<T> type) throws IOException {
    return mapper.treeToValue(node, type);
  }

  String write(Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A stored payload as the JSON value it was given as; text that is not JSON (enqueued from Java)
   * comes back as a JSON string, an empty payload as null.
   */
  JsonNode payload(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return mapper.readTree(text);
    } catch (IOException e) {
      return TextNode.valueOf(text);
    }
  }

  /** A payload given as a JSON value, stored as its JSON text; absent is the empty payload. */
  String payloadText(JsonNode node) {
    if (node == null) {
      return "";
    }
    return write(node);
  }

  private static boolean isBlank(byte[] body) {
    if (body == null) {
      return true;
    }
    for (byte b : body) {
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }
}
