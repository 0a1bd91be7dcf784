package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.time.DurationText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How a command reaches the server and prints: {@code --server}, {@code --token}, {@code
 * --timeout}, {@code --json}. Server and token come from the flag, else the environment ({@code
 * REDRIVE_SERVER}, {@code REDRIVE_TOKEN}), else the CLI config file ({@code REDRIVE_CLI_CONFIG} or
 * {@code ~/.config/redrive/cli.toml}: {@code server = "..."}, {@code token = "..."}), else the
 * default server and no token.
 */
public final class ApiOptions {
  @Option(
      names = "--server",
      paramLabel = "URL",
      description =
          "Server URL (default: $REDRIVE_SERVER, the CLI config file, else "
              + ApiClient.DEFAULT_SERVER
              + ").")
  String server;

  @Option(
      names = "--token",
      paramLabel = "KEY",
      description = "API key (default: $REDRIVE_TOKEN, else the CLI config file). Never printed.")
  String token;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "30s",
      description = "How long one request may take (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Option(names = "--json", description = "Print the server's JSON instead of tables.")
  boolean json;

  /** Reads the environment; tests replace it. */
  static Map<String, String> environment = System.getenv();

  ApiClient connect() {
    return connect(null);
  }

  /** Connects with {@code --timeout}, raised to {@code atLeast} when that is longer. */
  ApiClient connect(Duration atLeast) {
    Map<String, String> env = environment;
    JsonNode file = null;
    String resolvedServer = firstOf(server, env.get("REDRIVE_SERVER"));
    String resolvedToken = firstOf(token, env.get("REDRIVE_TOKEN"));
    if (resolvedServer == null || resolvedToken == null) {
      file = configFile(env);
      if (file != null) {
        resolvedServer = firstOf(resolvedServer, file.path("server").asText(null));
        resolvedToken = firstOf(resolvedToken, file.path("token").asText(null));
      }
    }
    Duration requestTimeout = DurationText.parse("--timeout", timeout);
    if (atLeast != null && atLeast.compareTo(requestTimeout) > 0) {
      requestTimeout = atLeast;
    }
    return ApiClient.connect(
        firstOf(resolvedServer, ApiClient.DEFAULT_SERVER), resolvedToken, requestTimeout);
  }

  private static JsonNode configFile(Map<String, String> env) {
    String explicit = env.get("REDRIVE_CLI_CONFIG");
    Path path;
    if (explicit != null && !explicit.isBlank()) {
      path = Path.of(explicit);
    } else {
      String base = env.get("XDG_CONFIG_HOME");
      path =
          base == null || base.isBlank()
              ? Path.of(System.getProperty("user.home"), ".config", "redrive", "cli.toml")
              : Path.of(base, "redrive", "cli.toml");
      if (!Files.isRegularFile(path)) {
        return null;
      }
    }
    try {
      return new TomlMapper().readTree(path.toFile());
    } catch (IOException e) {
      throw CliException.local(
          "CONFIG", "cannot read the CLI config file " + path + ": " + e.getMessage());
    }
  }

  private static String firstOf(String a, String b) {
    return a != null && !a.isBlank() ? a : b != null && !b.isBlank() ? b : null;
  }
}
