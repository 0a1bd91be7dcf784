package io.redrive.cli;

import io.redrive.cli.command.CircuitCommand;
import io.redrive.cli.command.CompleteCommand;
import io.redrive.cli.command.EnqueueCommand;
import io.redrive.cli.command.ExitCode;
import io.redrive.cli.command.FailCommand;
import io.redrive.cli.command.ImportCommand;
import io.redrive.cli.command.LeaseCommand;
import io.redrive.cli.command.MessageCommand;
import io.redrive.cli.command.MigrateCommand;
import io.redrive.cli.command.ObjectiveCommand;
import io.redrive.cli.command.PingCommand;
import io.redrive.cli.command.PolicyCommand;
import io.redrive.cli.command.QueueCommand;
import io.redrive.cli.command.ScheduleCommand;
import io.redrive.cli.command.ServerCommand;
import io.redrive.cli.command.WorkCommand;
import io.redrive.cli.command.WorkflowCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code redrive} command: entry point of the runnable artifact. */
@Command(
    name = "redrive",
    mixinStandardHelpOptions = true,
    version = "redrive 0.1.0-SNAPSHOT",
    description = "Durable work queue whose strength is failure handling.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      DemoCommand.class,
      ServerCommand.class,
      MigrateCommand.class,
      QueueCommand.class,
      ScheduleCommand.class,
      ObjectiveCommand.class,
      PolicyCommand.class,
      CircuitCommand.class,
      EnqueueCommand.class,
      MessageCommand.class,
      WorkflowCommand.class,
      ImportCommand.class,
      LeaseCommand.class,
      CompleteCommand.class,
      FailCommand.class,
      WorkCommand.class,
      PingCommand.class,
      CompletionCommand.class
    },
    footer = {
      "",
      "Exit codes: 0 ok, 1 failure, 2 usage, 3 not found, 4 conflict, 5 auth,",
      "6 server unreachable or failing, 7 workflow ended failed/terminated,",
      "8 replay-check found breaking instances. See docs/cli.md.",
      "Shell completion: source <(redrive completion)"
    })
public final class RedriveCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * The command line as {@code main} runs it: the exit-code mapping installed, and picocli's
   * {@code @file} argument expansion off so that {@code --payload @file} reaches the command.
   */
  public static CommandLine commandLine() {
    return ExitCode.install(new CommandLine(new RedriveCommand())).setExpandAtFiles(false);
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
