package io.redrive.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The server's one Jackson configuration: strict on input (unknown fields, duplicate keys, trailing
 * tokens and type coercions are errors), ISO-8601 instants to the millisecond on output.
 * Thread-safe.
 */
final class JsonCodec {
  /** Answers carry times to the millisecond, always with three fraction digits. */
  static final DateTimeFormatter INSTANT_MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final JsonSerializer<Instant> MILLIS =
      new JsonSerializer<>() {
        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider)
            throws IOException {
          gen.writeString(INSTANT_MILLIS.format(value.truncatedTo(ChronoUnit.MILLIS)));
        }
      };

  private final ObjectMapper mapper;

  JsonCodec() {
    ObjectMapper m =
        JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new SimpleModule("redrive-millis").addSerializer(Instant.class, MILLIS))
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
    return mapper.readerFor(type).withAttribute(RawJson.SOURCE, body).readValue(body);
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
   * A stored payload as the JSON text it was given as, byte for byte; text that is not one JSON
   * value (enqueued from Java) comes back as a JSON string, an empty payload as null.
   */
  RawJson payload(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    if (isJsonValue(text)) {
      return new RawJson(text);
    }
    return new RawJson(write(text));
  }

  /**
   * A payload given as a JSON value, stored as the producer's text; absent is the empty payload.
   */
  static String payloadText(RawJson value) {
    return value == null ? "" : value.text();
  }

  private boolean isJsonValue(String text) {
    try (JsonParser p = mapper.createParser(text)) {
      if (p.nextToken() == null) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (IOException e) {
      return false;
    }
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
