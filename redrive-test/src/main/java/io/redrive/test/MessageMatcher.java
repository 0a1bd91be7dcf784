package io.redrive.test;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.message.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Which enqueued messages an assertion is about: a type, payload fields by JSON path ({@code
 * $.order.id}, {@code $.lines[0].sku}), header values, or any predicate. Every condition must hold.
 * Immutable; each {@code with}-style method returns a new matcher.
 */
public final class MessageMatcher {
  private final List<Condition> conditions;

  private record Condition(String description, Predicate<Message> test) {}

  private MessageMatcher(List<Condition> conditions) {
    this.conditions = List.copyOf(conditions);
  }

  /** Every message. */
  public static MessageMatcher any() {
    return new MessageMatcher(List.of());
  }

  /** Messages of {@code type}. */
  public static MessageMatcher type(String type) {
    return any().andType(type);
  }

  /** Also of {@code type}. */
  public MessageMatcher andType(String type) {
    Objects.requireNonNull(type, "type");
    return and("type = \"" + type + "\"", m -> type.equals(m.type()));
  }

  /**
   * Also with the payload field at JSON path {@code path} equal to {@code expected}: a String, a
   * number, a boolean, null (the field is JSON null), or any value Jackson turns into the same
   * JSON.
   *
   * @throws IllegalArgumentException when {@code path} is not a JSON path this kit reads
   */
  public MessageMatcher payload(String path, Object expected) {
    String pointer = JsonPaths.toPointer(path);
    JsonNode want = JsonPaths.MAPPER.valueToTree(expected);
    return and(
        path + " = " + want,
        m -> {
          JsonNode got = JsonPaths.read(m.payload()).at(pointer);
          return !got.isMissingNode() && JsonPaths.sameValue(got, want);
        });
  }

  /** Also with a payload for which {@code test} holds (given the parsed payload). */
  public MessageMatcher payloadMatches(String description, Predicate<JsonNode> test) {
    Objects.requireNonNull(test, "test");
    return and(description, m -> test.test(JsonPaths.read(m.payload())));
  }

  /** Also with header {@code name} equal to {@code value}. */
  public MessageMatcher header(String name, String value) {
    return and(
        "header " + name + " = \"" + value + "\"",
        m -> m.headers() != null && Objects.equals(m.headers().get(name), value));
  }

  /** Also matching {@code test}, described in failure messages as {@code description}. */
  public MessageMatcher and(String description, Predicate<Message> test) {
    Objects.requireNonNull(test, "test");
    List<Condition> more = new ArrayList<>(conditions);
    more.add(new Condition(description, test));
    return new MessageMatcher(more);
  }

  /** Whether {@code message} meets every condition. */
  public boolean matches(Message message) {
    for (Condition c : conditions) {
      if (!c.test().test(message)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    if (conditions.isEmpty()) {
      return "any message";
    }
    List<String> parts = conditions.stream().map(Condition::description).toList();
    return String.join(" and ", parts);
  }
}
