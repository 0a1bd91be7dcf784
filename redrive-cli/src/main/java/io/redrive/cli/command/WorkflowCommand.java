package io.redrive.cli.command;

import picocli.CommandLine.Command;

/** {@code redrive workflow}: the workflow instance subcommands. */
@Command(
    name = "workflow",
    mixinStandardHelpOptions = true,
    description = "Start, inspect and steer workflow instances; check a new build against them.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      WorkflowStartCommand.class,
      WorkflowListCommand.class,
      WorkflowNodesCommand.class,
      WorkflowShowCommand.class,
      WorkflowHistoryCommand.class,
      WorkflowRaiseCommand.class,
      WorkflowWaitCommand.class,
      WorkflowTerminateCommand.class,
      WorkflowRetryCommand.class,
      WorkflowDeleteCommand.class,
      WorkflowReplayCheckCommand.class
    })
public final class WorkflowCommand {}
