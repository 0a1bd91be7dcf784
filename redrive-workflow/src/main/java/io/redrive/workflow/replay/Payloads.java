package io.redrive.workflow.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import io.redrive.PayloadTooLargeException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/**
 * Inputs, results and events as JSON through the runtime's {@link ObjectMapper}, with the engine's
 * payload limit. Thread-safe.
 */
public final class Payloads {
  private final ObjectMapper mapper;
  private final int maxBytes;

  public Payloads(ObjectMapper mapper, int maxBytes) {
    this.mapper = mapper;
    this.maxBytes = maxBytes;
  }

  public ObjectMapper mapper() {
    return mapper;
  }

  /**
   * {@code value} as a JSON tree, checked against the limit.
   *
   * @throws PayloadTooLargeException naming {@code field} when it is larger
   * @throws IllegalArgumentException when it cannot be written as JSON
   */
  public JsonNode encode(String field, Object value) {
    JsonNode node = value == null ? NullNode.instance : mapper.valueToTree(value);
    int bytes = size(node);
    if (bytes > maxBytes) {
      throw new PayloadTooLargeException(field, bytes, maxBytes);
    }
    return node;
  }

  /** The UTF-8 size of {@code node} as JSON text. */
  public int size(JsonNode node) {
    try {
      return mapper.writeValueAsString(node).getBytes(StandardCharsets.UTF_8).length;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("payload: cannot be written as JSON", e);
    }
  }

  /**
   * {@code node} read as {@code type}.
   *
   * @throws UndecodablePayload when it does not fit the type (a DTO changed under a history)
   */
  public Object decode(String what, JsonNode node, Type type) {
    if (type == Void.class || type == void.class) {
      return null;
    }
    try {
      return mapper.treeToValue(
          node == null ? NullNode.instance : node, mapper.getTypeFactory().constructType(type));
    } catch (JsonProcessingException e) {
      // the original message: without Jackson's second line on where it read
      throw new UndecodablePayload(
          what + " does not decode as " + type.getTypeName() + ": " + e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      throw new UndecodablePayload(
          what + " does not decode as " + type.getTypeName() + ": " + e.getMessage());
    }
  }

  /** {@code text} parsed as JSON (null for null). */
  public JsonNode parse(String text) {
    if (text == null) {
      return NullNode.instance;
    }
    try {
      return mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw new UndecodablePayload("stored JSON does not parse: " + e.getOriginalMessage());
    }
  }

  /** {@code node} as JSON text. */
  public String text(JsonNode node) {
    try {
      return mapper.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("payload: cannot be written as JSON", e);
    }
  }

  /** A recorded payload that no longer fits the code's type: the turn bounces, counted. */
  public static final class UndecodablePayload extends Error {
    private static final long serialVersionUID = 1L;

    public UndecodablePayload(String message) {
      super(message, null, false, false);
    }
  }
}
