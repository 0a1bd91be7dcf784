package io.redrive.server.config;

import java.nio.file.Path;

/**
 * A server configuration is invalid. The message is {@code <file>: <path>: <problem>}, e.g. {@code
 * redrive.toml: queues.emails.retry.cooldown: unknown duration unit "x" (...)}; the file part is
 * left out when the settings did not come from a file and the path part when the problem is the
 * file as a whole (unreadable, not TOML). Never contains a secret.
 */
public final class ConfigException extends IllegalArgumentException {
  private final transient Path file;
  private final String path;
  private final String problem;

  public ConfigException(Path file, String path, String problem) {
    this(file, path, problem, null);
  }

  public ConfigException(Path file, String path, String problem, Throwable cause) {
    super(format(file, path, problem), cause);
    this.file = file;
    this.path = path;
    this.problem = problem;
  }

  /** The config file, or null. */
  public Path file() {
    return file;
  }

  /** The setting's path, e.g. {@code queues.emails.retry.cooldown}, or null for the whole file. */
  public String path() {
    return path;
  }

  /** The problem without the file and path. */
  public String problem() {
    return problem;
  }

  private static String format(Path file, String path, String problem) {
    StringBuilder sb = new StringBuilder();
    if (file != null) {
      sb.append(file).append(": ");
    }
    if (path != null) {
      sb.append(path).append(": ");
    }
    return sb.append(problem).toString();
  }
}
