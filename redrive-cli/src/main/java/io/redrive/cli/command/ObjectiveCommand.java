package io.redrive.cli.command;

import picocli.CommandLine.Command;

/** {@code redrive objective}: the queue-age objective subcommands. */
@Command(
    name = "objective",
    mixinStandardHelpOptions = true,
    description = "List, set and delete queue-age objectives (compliance, burn rate, budget).",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      ObjectiveListCommand.class,
      ObjectiveSetCommand.class,
      ObjectiveDeleteCommand.class
    })
public final class ObjectiveCommand {}
