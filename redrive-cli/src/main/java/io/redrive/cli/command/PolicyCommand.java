package io.redrive.cli.command;

import picocli.CommandLine.Command;

/** {@code redrive policy}: questions about retry policies. */
@Command(
    name = "policy",
    mixinStandardHelpOptions = true,
    description = "Try a retry policy on what a queue recorded before changing it.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {PolicyWhatIfCommand.class})
public final class PolicyCommand {}
