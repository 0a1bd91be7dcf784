package io.redrive.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.time.DurationText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One value of a parsed {@code redrive.toml} with its path ({@code queues.emails.retry}), read with
 * typed accessors whose errors are {@link ConfigException}s naming the file and the path. Values
 * are described in errors only when they have the wrong type, so a secret is never echoed.
 */
final class ConfigNode {
  private static final Pattern BARE_KEY = Pattern.compile("[A-Za-z0-9_-]+");
  private static final Pattern FIELD_PREFIX = Pattern.compile("^([A-Za-z][A-Za-z0-9_.\\[\\]]*): ");

  private final Path file;
  private final String path;
  private final JsonNode node;

  ConfigNode(Path file, String path, JsonNode node) {
    this.file = file;
    this.path = path;
    this.node = node;
  }

  String path() {
    return path;
  }

  Path file() {
    return file;
  }

  boolean present() {
    return node != null && !node.isNull();
  }

  /** The child {@code key} of this table (absent when not given). */
  ConfigNode child(String key) {
    return new ConfigNode(file, childPath(path, key), node == null ? null : node.get(key));
  }

  /** The entries of this table in file order, after checking it is one. */
  Map<String, ConfigNode> entries() {
    requireTable();
    Map<String, ConfigNode> out = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      out.put(e.getKey(), new ConfigNode(file, childPath(path, e.getKey()), e.getValue()));
    }
    return out;
  }

  /** Checks this is a table whose keys are all in {@code known}. */
  ConfigNode allowOnly(Collection<String> known) {
    for (Map.Entry<String, ConfigNode> e : entries().entrySet()) {
      if (!known.contains(e.getKey())) {
        throw e.getValue()
            .error(
                "unknown setting"
                    + hint(e.getValue())
                    + " (known: "
                    + String.join(", ", known)
                    + ")");
      }
    }
    return this;
  }

  private static String hint(ConfigNode unknown) {
    return unknown.node.isObject() && unknown.path.startsWith("queues.")
        ? "; a queue name with dots must be quoted, e.g. [queues.\"emails.dlq\"]"
        : "";
  }

  boolean isArray() {
    return node.isArray();
  }

  String describe() {
    return describe(node);
  }

  ConfigNode requireTable() {
    if (!node.isObject()) {
      throw wrongType("a table");
    }
    return this;
  }

  List<ConfigNode> array() {
    if (!node.isArray()) {
      throw wrongType("an array");
    }
    List<ConfigNode> out = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      out.add(new ConfigNode(file, path + "[" + i + "]", node.get(i)));
    }
    return out;
  }

  String string() {
    if (!node.isTextual()) {
      throw wrongType("a string");
    }
    return node.textValue();
  }

  /** A string whose value must never appear in a message (a secret, a password). */
  String secretString() {
    if (!node.isTextual()) {
      throw error("expected a string");
    }
    return node.textValue();
  }

  String nonEmptyString() {
    String s = string();
    if (s.isBlank()) {
      throw error("must not be empty");
    }
    return s;
  }

  long integer() {
    if (!node.isIntegralNumber()) {
      throw wrongType("an integer");
    }
    if (!node.canConvertToLong()) {
      throw error("is out of range, was " + node.asText());
    }
    return node.longValue();
  }

  /** An integer between {@code min} and {@code max}. */
  int integer(int min, int max) {
    long v = integer();
    if (v < min || v > max) {
      throw error("must be between " + min + " and " + max + ", was " + v);
    }
    return (int) v;
  }

  /** An integer in int range; range rules are left to the caller. */
  int anyInt() {
    long v = integer();
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw error("is out of range, was " + v);
    }
    return (int) v;
  }

  boolean bool() {
    if (!node.isBoolean()) {
      throw wrongType("true or false");
    }
    return node.booleanValue();
  }

  double number() {
    if (!node.isNumber()) {
      throw wrongType("a number");
    }
    return node.doubleValue();
  }

  Duration duration() {
    if (!node.isTextual()) {
      throw wrongType("a duration such as \"30s\"");
    }
    try {
      return DurationText.parse("duration", node.textValue());
    } catch (IllegalArgumentException e) {
      throw error(e);
    }
  }

  ConfigException error(String problem) {
    return new ConfigException(file, path, problem);
  }

  /** The error of a validator whose message starts with its own field name; that is dropped. */
  ConfigException error(IllegalArgumentException e) {
    return new ConfigException(file, path, withoutField(e.getMessage()), e);
  }

  /**
   * The error of a validator whose message starts with a field name relative to this node (e.g.
   * {@code backoff.max: ...} from a queue's node): the path becomes this path plus that field.
   */
  ConfigException errorAtField(IllegalArgumentException e) {
    Matcher m = FIELD_PREFIX.matcher(String.valueOf(e.getMessage()));
    if (!m.find()) {
      return new ConfigException(file, path, e.getMessage(), e);
    }
    return new ConfigException(file, path + "." + m.group(1), e.getMessage().substring(m.end()), e);
  }

  static String withoutField(String message) {
    if (message == null) {
      return "invalid";
    }
    Matcher m = FIELD_PREFIX.matcher(message);
    return m.find() ? message.substring(m.end()) : message;
  }

  private ConfigException wrongType(String expected) {
    return error("expected " + expected + ", was " + describe(node));
  }

  static String describe(JsonNode n) {
    if (n.isTextual()) {
      return "\"" + n.textValue() + "\"";
    }
    if (n.isObject()) {
      return "a table";
    }
    if (n.isArray()) {
      return "an array";
    }
    return n.asText();
  }

  /** {@code parent.key}, quoting the key as TOML does when it is not a bare key. */
  static String childPath(String parent, String key) {
    String k = BARE_KEY.matcher(key).matches() ? key : "\"" + key.replace("\"", "\\\"") + "\"";
    return parent == null || parent.isEmpty() ? k : parent + "." + k;
  }
}
