package io.redrive.cli;

import io.redrive.Redrive;
import io.redrive.sqlite.SqliteStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code redrive demo}: pushes example messages through the engine on the SQLite default. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs example messages through the engine on an embedded SQLite file (no server).",
      "A healthy one, a flaky one that succeeds on retry, a poison one that crashes its worker",
      "every time, and an invalid one that goes straight to the dead-letter queue; then prints",
      "each message's final state and attempt history."
    })
final class DemoCommand implements Callable<Integer> {
  @Option(
      names = "--data-dir",
      defaultValue = ".redrive/demo",
      description = "Directory of the SQLite database (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--timeout",
      defaultValue = "60s",
      description = "Give up if the demo has not settled every message by then.")
  String timeout;

  @Override
  public Integer call() {
    PrintStream out = System.out;
    Duration limit = io.redrive.time.DurationText.parse("--timeout", timeout);
    try (Redrive redrive = Redrive.builder(SqliteStore.inDirectory(dataDir)).build()) {
      out.println("Redrive demo on SQLite at " + dataDir.resolve(SqliteStore.FILE_NAME));
      return new DemoScenario(redrive, out).run(limit) ? 0 : 1;
    }
  }
}
