package io.redrive.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code redrive} command: entry point of the runnable artifact. */
@Command(
    name = "redrive",
    mixinStandardHelpOptions = true,
    version = "redrive 0.1.0-SNAPSHOT",
    description = "Durable work queue whose strength is failure handling.",
    subcommands = {DemoCommand.class})
public final class RedriveCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new RedriveCommand()).execute(args));
  }
}
