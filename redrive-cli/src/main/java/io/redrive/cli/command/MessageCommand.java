package io.redrive.cli.command;

import picocli.CommandLine.Command;

/** {@code redrive message}: the message subcommands. */
@Command(
    name = "message",
    mixinStandardHelpOptions = true,
    description = "List and inspect messages; retry or drop dead ones.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      MessageListCommand.class,
      MessageShowCommand.class,
      MessageRetryCommand.class,
      MessageRetryNowCommand.class,
      MessageDropCommand.class
    })
public final class MessageCommand {}
