package io.redrive.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;
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

  /**
   * Instants only from ISO-8601 text: Jackson's own deserializer would also take a number as epoch
   * seconds, so {@code "deadSince": 1} would silently mean 1970.
   */
  private static final JsonDeserializer<Instant> STRICT_INSTANT =
      new StdDeserializer<>(Instant.class) {
        @Override
        public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
          if (!p.hasToken(JsonToken.VALUE_STRING)) {
            return (Instant) ctxt.handleUnexpectedToken(Instant.class, p);
          }
          return InstantDeserializer.INSTANT.deserialize(p, ctxt);
        }
      };

  /**
   * Every string of a request refuses NUL (U+0000), naming its field: PostgreSQL's text type cannot
   * hold one and SQLite would keep it, so it is bad input on both stores, never a store error.
   */
  private static final JsonDeserializer<String> NO_NUL =
      new StdScalarDeserializer<>(String.class) {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
          String value = StringDeserializer.instance.deserialize(p, ctxt);
          int at = value == null ? -1 : value.indexOf('\0');
          if (at >= 0) {
            throw JsonMappingException.from(
                p, "must not contain the NUL character (U+0000), found at index " + at);
          }
          return value;
        }

        @Override
        public LogicalType logicalType() {
          return LogicalType.Textual;
        }
      };

  /** Map keys (headers' names) refuse NUL as string values do. */
  private static final KeyDeserializer NO_NUL_KEY =
      new KeyDeserializer() {
        @Override
        public Object deserializeKey(String key, DeserializationContext ctxt) throws IOException {
          if (key.indexOf('\0') >= 0) {
            throw JsonMappingException.from(
                ctxt,
                "a field name must not contain the NUL character (U+0000), found at index "
                    + key.indexOf('\0'));
          }
          return key;
        }
      };

  /**
   * The text of a failure report (a message, a stack trace, an abandon note) keeps its NUL
   * characters here: a failure is never refused for its text, and the engine replaces each NUL with
   * U+FFFD before storing it.
   */
  static final class FailureText extends StdScalarDeserializer<String> {
    FailureText() {
      super(String.class);
    }

    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      return StringDeserializer.instance.deserialize(p, ctxt);
    }

    @Override
    public LogicalType logicalType() {
      return LogicalType.Textual;
    }
  }

  private final ObjectMapper mapper;

  JsonCodec() {
    ObjectMapper m =
        JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(
                new SimpleModule("redrive-millis")
                    .addSerializer(Instant.class, MILLIS)
                    .addDeserializer(Instant.class, STRICT_INSTANT)
                    .addDeserializer(String.class, NO_NUL)
                    .addKeyDeserializer(String.class, NO_NUL_KEY))
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
    requireUtf8(body);
    refuseLoneSurrogates(body);
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

  /**
   * Refuses a string (value or field name) holding half of a UTF-16 surrogate pair ({@code
   * "\\ud800"} alone, or its bytes): it is no Unicode text, and storing it would turn it into
   * {@code ?}. Malformed JSON is left to the real read, which reports it.
   */
  private void refuseLoneSurrogates(byte[] body) throws IOException {
    try (JsonParser p = mapper.createParser(body)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if ((t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME)
            && hasLoneSurrogate(p.getText())) {
          String at = pathOf(p.getParsingContext(), t == JsonToken.FIELD_NAME);
          throw new IllegalArgumentException(
              at
                  + ": contains a lone UTF-16 surrogate (such as \\ud800 without its pair),"
                  + " which is not Unicode text");
        }
      }
    } catch (JsonProcessingException e) {
      // not well-formed: the real read reports it with its usual message
    }
  }

  /**
   * Refuses a body that is not UTF-8, including the 3-byte encodings of surrogates (CESU-8), which
   * the JSON parser would let through and the payload copy would turn into U+FFFD.
   */
  private static void requireUtf8(byte[] body) {
    java.nio.charset.CharsetDecoder decoder =
        java.nio.charset.StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(body);
    java.nio.CharBuffer out = java.nio.CharBuffer.allocate(Math.min(body.length, 8192));
    while (true) {
      java.nio.charset.CoderResult r = decoder.decode(in, out, true);
      if (r.isError()) {
        throw new IllegalArgumentException(
            "body: not valid UTF-8 at byte " + in.position() + " (a lone surrogate, or bad bytes)");
      }
      if (r.isUnderflow()) {
        return;
      }
      out.clear();
    }
  }

  static boolean hasLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        return true;
      }
      if (Character.isLowSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  /** The path of the current token as the error messages write it: {@code messages[0].type}. */
  private static String pathOf(JsonStreamContext context, boolean fieldName) {
    java.util.ArrayDeque<String> parts = new java.util.ArrayDeque<>();
    for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        parts.push("[" + Math.max(c.getCurrentIndex(), 0) + "]");
      } else if (c.inObject() && c.getCurrentName() != null) {
        String name = hasLoneSurrogate(c.getCurrentName()) ? "(a field name)" : c.getCurrentName();
        parts.push("." + name);
      }
    }
    String path = String.join("", parts);
    if (path.startsWith(".")) {
      path = path.substring(1);
    }
    return path.isEmpty() ? "body" : path;
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
