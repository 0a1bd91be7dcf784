package io.redrive.cli.command;

import picocli.CommandLine.Command;

/** {@code redrive queue}: the queue subcommands. */
@Command(
    name = "queue",
    mixinStandardHelpOptions = true,
    description = "List, inspect, configure, pause and redrive queues.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      QueueListCommand.class,
      QueueShowCommand.class,
      QueueCreateCommand.class,
      QueueUpdateCommand.class,
      QueueDeleteCommand.class,
      QueuePauseCommand.class,
      QueueResumeCommand.class,
      QueueStatsCommand.class,
      QueueThroughputCommand.class,
      QueueRedriveCommand.class,
      QueueWorkersCommand.class
    })
public final class QueueCommand {}
