package io.redrive.cli.command;

import io.redrive.cli.output.Output;
import io.redrive.server.config.StoreSettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code redrive migrate}: brings the store's schema to this build's version, or prints the SQL for
 * a DBA to review and run; talks to the database directly, like the server.
 */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = {
      "Applies Redrive's pending schema migrations to the database the server would use",
      "(redrive.toml and the same store flags as `redrive server`), or prints their SQL.",
      "For stores opened in validate mode, whose schema changes an operator applies."
    })
public final class MigrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Option(
      names = "--print-sql",
      description =
          "Print the SQL of the pending migrations (each records itself in"
              + " redrive_schema_history) instead of applying it; changes nothing.")
  boolean printSql;

  /** Reads the environment; tests replace it. */
  static Map<String, String> environment = System.getenv();

  @Override
  public Integer call() {
    Output output = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), false);
    try {
      StoreSettings store = storeOptions.settings(environment).store();
      if (printSql) {
        spec.commandLine().getOut().print(store.pendingSql());
        spec.commandLine().getOut().flush();
        return 0;
      }
      List<String> applied = store.migrate();
      output.line(
          applied.isEmpty()
              ? store.where() + ": schema is current, nothing to apply"
              : store.where() + ": applied " + versions(applied));
      return 0;
    } catch (RuntimeException e) {
      return ExitCode.report(ServerCommand.startFailure(e), output, false);
    }
  }

  private static String versions(List<String> applied) {
    return applied.stream().map(v -> "V" + v).reduce((a, b) -> a + ", " + b).orElse("");
  }
}
