package io.redrive.server.config;

import java.util.function.Function;

/** Reads secrets: given in the file, or named there as an environment variable to read. */
final class Secrets {
  private final Function<String, String> env;

  Secrets(Function<String, String> env) {
    this.env = env;
  }

  /**
   * The secret given directly ({@code plain}) or through an environment variable ({@code fromEnv});
   * at most one of them. Never echoes the value.
   */
  String secret(ConfigNode plain, ConfigNode fromEnv, boolean required) {
    if (plain.present() && fromEnv.present()) {
      throw fromEnv.error("not together with " + last(plain.path()) + " (give one of them)");
    }
    if (plain.present()) {
      return plain.secretString();
    }
    if (fromEnv.present()) {
      String variable = fromEnv.nonEmptyString();
      String value = env.apply(variable);
      if (value == null || value.isEmpty()) {
        throw fromEnv.error("environment variable \"" + variable + "\" is not set");
      }
      return value;
    }
    if (required) {
      throw plain.error("is required (or " + last(fromEnv.path()) + ")");
    }
    return null;
  }

  private static String last(String path) {
    return path.substring(path.lastIndexOf('.') + 1);
  }
}
