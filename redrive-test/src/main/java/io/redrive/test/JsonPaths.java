package io.redrive.test;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON paths a matcher reads: {@code $}, then {@code .name} or {@code ['name']} members and
 * {@code [n]} array elements — the subset that names one value, turned into a JSON Pointer that
 * Jackson resolves. Wildcards and filters are refused by name rather than half supported.
 */
final class JsonPaths {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private static final Pattern STEP =
      Pattern.compile("\\.([A-Za-z_$][A-Za-z0-9_$-]*)|\\['([^']*)'\\]|\\[(\\d+)\\]");

  private JsonPaths() {}

  /** The JSON Pointer for {@code path}, e.g. {@code $.lines[0].sku} → {@code /lines/0/sku}. */
  static String toPointer(String path) {
    if (path == null || !path.startsWith("$")) {
      throw new IllegalArgumentException("path: a JSON path starts with $, was \"" + path + "\"");
    }
    StringBuilder pointer = new StringBuilder();
    Matcher m = STEP.matcher(path);
    int at = 1;
    while (at < path.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException(
            "path: \""
                + path
                + "\" is not a path of .name, ['name'] and [index] steps at position "
                + at);
      }
      String name = m.group(1) != null ? m.group(1) : m.group(2);
      String step = name != null ? name : m.group(3);
      pointer.append('/').append(step.replace("~", "~0").replace("/", "~1"));
      at = m.end();
    }
    return JsonPointer.compile(pointer.toString()).toString();
  }

  /** The parsed payload, or a missing node when it is absent or not JSON. */
  static JsonNode read(String payload) {
    if (payload == null) {
      return MissingNode.getInstance();
    }
    try {
      return MAPPER.readTree(payload);
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    }
  }

  /** Equal JSON values, numbers compared by value (1 and 1.0 are the same amount). */
  static boolean sameValue(JsonNode got, JsonNode want) {
    if (got.isNumber() && want.isNumber()) {
      return got.decimalValue().compareTo(want.decimalValue()) == 0;
    }
    return got.equals(want);
  }
}
