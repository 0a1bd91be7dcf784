package io.redrive.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code components/schemas} of the {@link OpenApi} document: one object schema per record,
 * read from its components (with their {@link ApiField} bounds and Jackson annotations), in the
 * order they are first named. Not thread-safe: one per document.
 */
final class OpenApiSchemas {
  /** Times in answers: ISO-8601 UTC with exactly three fraction digits (milliseconds). */
  static final String INSTANT_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";

  private final Map<String, Object> schemas = new LinkedHashMap<>();
  private final Map<String, Class<?>> schemaTypes = new LinkedHashMap<>();

  /** The schemas added so far, by name (the document holds this map itself). */
  Map<String, Object> byName() {
    return schemas;
  }

  /**
   * Adds the schema of a record (and the records it contains); returns its name. In a request only
   * {@link ApiField#required()} fields are required; in a response every field is, except those
   * Jackson leaves out when null ({@link JsonInclude} NON_NULL).
   */
  String add(Class<?> type, boolean response) {
    String name = type.getSimpleName();
    Class<?> known = schemaTypes.get(name);
    if (known != null) {
      if (known != type) {
        throw new IllegalStateException("two schemas named " + name + ": " + known + ", " + type);
      }
      return name;
    }
    schemaTypes.put(name, type);
    schemas.put(name, Map.of());
    Map<String, Object> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    addProperties(type, response, properties, required);
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("additionalProperties", false);
    schema.put("properties", properties);
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    schemas.put(name, schema);
    return name;
  }

  private void addProperties(
      Class<?> type, boolean response, Map<String, Object> properties, List<String> required) {
    JsonInclude classInclude = type.getAnnotation(JsonInclude.class);
    for (RecordComponent c : type.getRecordComponents()) {
      if (c.getAccessor().getAnnotation(JsonUnwrapped.class) != null) {
        addProperties(c.getType(), response, properties, required);
        continue;
      }
      JsonProperty renamed = c.getAccessor().getAnnotation(JsonProperty.class);
      String field = renamed == null ? c.getName() : renamed.value();
      ApiField api = c.getAnnotation(ApiField.class);
      properties.put(field, fieldSchema(c.getGenericType(), api, response));
      JsonInclude include = c.getAccessor().getAnnotation(JsonInclude.class);
      boolean omittedWhenNull =
          (include != null && include.value() == JsonInclude.Include.NON_NULL)
              || (include == null
                  && classInclude != null
                  && classInclude.value() == JsonInclude.Include.NON_NULL);
      if (response ? !omittedWhenNull : api != null && api.required()) {
        required.add(field);
      }
    }
  }

  private Map<String, Object> fieldSchema(Type type, ApiField api, boolean response) {
    Map<String, Object> schema = new LinkedHashMap<>(typeSchema(type, api, response));
    if (api != null) {
      if (!api.description().isEmpty()) {
        schema.put("description", api.description());
      }
      if (api.nullable()) {
        if (schema.containsKey("$ref")) {
          Map<String, Object> wrapped = new LinkedHashMap<>();
          wrapped.put("allOf", List.of(Map.of("$ref", schema.remove("$ref"))));
          wrapped.putAll(schema);
          schema = wrapped;
        }
        schema.put("nullable", true);
      }
    }
    return schema;
  }

  private Map<String, Object> typeSchema(Type type, ApiField api, boolean response) {
    Map<String, Object> s = new LinkedHashMap<>();
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      Type item = p.getActualTypeArguments()[List.class.isAssignableFrom(raw) ? 0 : 1];
      // Bounds of a list of strings (e.g. an enum) describe its items; sizes describe the list.
      ApiField itemApi = api != null && api.values().length > 0 ? api : null;
      if (List.class.isAssignableFrom(raw)) {
        s.put("type", "array");
        s.put("items", fieldSchema(item, itemApi, response));
        if (api != null && api.minItems() > 0) {
          s.put("minItems", api.minItems());
        }
        if (api != null && api.maxItems() > 0) {
          s.put("maxItems", api.maxItems());
        }
        return s;
      }
      if (Map.class.isAssignableFrom(raw)) {
        s.put("type", "object");
        s.put("additionalProperties", fieldSchema(item, null, response));
        if (api != null && api.maxItems() > 0) {
          s.put("maxProperties", api.maxItems());
        }
        return s;
      }
    }
    Class<?> c = (Class<?>) type;
    if (c == String.class) {
      s.put("type", "string");
      if (api != null) {
        if (api.values().length > 0) {
          s.put("enum", Arrays.asList(api.values()));
        }
        if (!api.pattern().isEmpty()) {
          s.put("pattern", api.pattern());
        }
        if (api.maxLength() > 0) {
          s.put("maxLength", api.maxLength());
        }
        if (!api.format().isEmpty()) {
          s.put("format", api.format());
        }
      }
    } else if (c == Integer.class || c == int.class || c == Long.class || c == long.class) {
      s.put("type", "integer");
      s.put("format", c == Long.class || c == long.class ? "int64" : "int32");
      bounds(s, api, true);
    } else if (c == Double.class || c == double.class) {
      s.put("type", "number");
      bounds(s, api, false);
    } else if (c == Boolean.class || c == boolean.class) {
      s.put("type", "boolean");
    } else if (c == Instant.class) {
      s.put("type", "string");
      s.put("format", "date-time");
      if (response) {
        s.put("pattern", INSTANT_PATTERN);
      }
    } else if (c == RawJson.class) {
      s.put("description", "any JSON value, exactly as the producer wrote it");
    } else if (c.isEnum()) {
      s.put("type", "string");
      s.put("enum", enumNames(c));
    } else if (c.isRecord()) {
      s.put("$ref", "#/components/schemas/" + add(c, response));
    } else {
      throw new IllegalStateException("no schema for " + c.getName());
    }
    return s;
  }

  /** Whole numbers are at least 0 unless the field says otherwise. */
  private static void bounds(Map<String, Object> s, ApiField api, boolean whole) {
    if (api == null) {
      if (whole) {
        s.put("minimum", 0);
      }
      return;
    }
    if (api.bounded()) {
      s.put("minimum", api.min());
    }
    if (api.max() != Long.MAX_VALUE) {
      s.put("maximum", api.max());
    }
  }

  static List<String> enumNames(Class<?> type) {
    return Arrays.stream(type.getEnumConstants()).map(e -> ((Enum<?>) e).name()).toList();
  }
}
