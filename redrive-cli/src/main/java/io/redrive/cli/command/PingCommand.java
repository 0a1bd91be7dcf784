package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code redrive ping}: checks that the server answers, optionally waiting for it to start. */
@Command(
    name = "ping",
    mixinStandardHelpOptions = true,
    description = {
      "Checks that the server answers (GET /health). With --wait, keeps trying while it",
      "cannot be reached, for scripts that start `redrive server &` and go on at once.",
      "Exit 0 when it answers, 6 when it cannot be reached."
    })
public final class PingCommand extends ApiCommand {
  private static final Duration RETRY = Duration.ofMillis(200);

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Keep trying this long while the server cannot be reached (default: 0s).")
  String waitFor;

  @Override
  int run(ApiClient client, Output output) {
    Instant deadline =
        Instant.now().plus(waitFor == null ? Duration.ZERO : DurationText.parse("--wait", waitFor));
    while (true) {
      try {
        JsonNode health = client.get("/health");
        if (output.json()) {
          output.print(health);
        } else {
          output.line("Redrive server at " + client.server() + " is up");
        }
        return 0;
      } catch (CliException e) {
        if (!CliException.UNREACHABLE.equals(e.code()) || Instant.now().isAfter(deadline)) {
          throw e;
        }
      }
      try {
        Thread.sleep(RETRY.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException(0, "INTERRUPTED", "interrupted while waiting for the server");
      }
    }
  }
}
