package io.redrive.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Flag values checked while parsing, so a bad one is a usage error (exit 2) naming the value. */
final class Converters {
  private Converters() {}

  /** A duration in the unit form ({@code 500ms}, {@code 30s}, {@code 5m}), kept as its text. */
  static final class DurationValue implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      return duration(value);
    }
  }

  /** A duration in the unit form ({@code 500ms}, {@code 30s}, {@code 5m}) as a {@link Duration}. */
  static final class DurationFlag implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return DurationText.parse("duration", duration(value));
    }
  }

  /**
   * A retention of completed messages: a duration in the unit form ({@code 24h}, {@code 0s}), kept
   * as its text, or {@code default} (the engine's default).
   */
  static final class RetentionValue implements ITypeConverter<String> {
    static final String DEFAULT = "default";

    @Override
    public String convert(String value) {
      if (value.trim().equalsIgnoreCase(DEFAULT)) {
        return DEFAULT;
      }
      try {
        return DurationText.format(DurationText.parse("duration", value));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(
            "expected a duration (24h, 7d, 0s keeps none) or \"default\", was \"" + value + "\"");
      }
    }
  }

  /** {@code exponential:INITIAL:MULTIPLIER:MAX} or {@code fixed:COOLDOWN} as the API's backoff. */
  static final class BackoffValue implements ITypeConverter<ObjectNode> {
    @Override
    public ObjectNode convert(String value) {
      String[] parts = value.trim().split(":");
      String kind = parts[0].toLowerCase(Locale.ROOT);
      ObjectNode backoff = ApiClient.object();
      if (kind.equals("fixed") && parts.length == 2) {
        backoff.put("kind", "fixed").put("cooldown", duration(parts[1]));
        return backoff;
      }
      if ((kind.equals("exponential") || kind.equals("exp")) && parts.length == 4) {
        double multiplier;
        try {
          multiplier = Double.parseDouble(parts[2]);
        } catch (NumberFormatException e) {
          throw new TypeConversionException("multiplier \"" + parts[2] + "\" is not a number");
        }
        backoff
            .put("kind", "exponential")
            .put("initial", duration(parts[1]))
            .put("multiplier", multiplier)
            .put("max", duration(parts[3]));
        return backoff;
      }
      throw new TypeConversionException(
          "expected exponential:INITIAL:MULTIPLIER:MAX (exponential:1m:2:1h) or fixed:COOLDOWN"
              + " (fixed:30s), was \""
              + value
              + "\"");
    }
  }

  /** {@code ATTEMPTS:COOLDOWN} ({@code 3:30s}) as the API's short retry form. */
  static final class RetryValue implements ITypeConverter<ObjectNode> {
    @Override
    public ObjectNode convert(String value) {
      String[] parts = value.trim().split(":");
      if (parts.length != 2) {
        throw new TypeConversionException(
            "expected ATTEMPTS:COOLDOWN (3:30s), was \"" + value + "\"");
      }
      try {
        return ApiClient.object()
            .put("attempts", Integer.parseInt(parts[0]))
            .put("cooldown", duration(parts[1]));
      } catch (NumberFormatException e) {
        throw new TypeConversionException("attempts \"" + parts[0] + "\" is not a whole number");
      }
    }
  }

  static String duration(String value) {
    try {
      return DurationText.format(DurationText.parse("duration", value));
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(
          "invalid duration \""
              + value
              + "\" (use whole numbers with units, largest first: 500ms, 30s, 5m, 1m30s, 2h, 1d)");
    }
  }
}
