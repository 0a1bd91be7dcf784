package io.redrive.cli.command;

import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that talks to the server: connects with {@link ApiOptions}, runs, and turns any failure
 * into an exit code through {@link ExitCode} (so the mapping holds however the command line was
 * built).
 */
abstract class ApiCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Override
  public final Integer call() {
    Output output = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), api.json);
    try {
      return run(api.connect(requestTimeoutAtLeast()), output);
    } catch (RuntimeException e) {
      return ExitCode.report(e, output);
    }
  }

  /**
   * The shortest request timeout the command needs (a long-polling lease must outlast its wait), or
   * null; a longer {@code --timeout} wins.
   */
  Duration requestTimeoutAtLeast() {
    return null;
  }

  /** Runs the command; returns its exit code (usually {@code 0}); failures are thrown. */
  abstract int run(ApiClient client, Output output);
}
