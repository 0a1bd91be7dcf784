/**
 * The {@code redrive} subcommands that talk to a server ({@code queue}, {@code enqueue}, {@code
 * message}, {@code import}) and the one that runs it ({@code server}); {@link
 * io.redrive.cli.command.ExitCode} is the one place failures become exit codes.
 */
package io.redrive.cli.command;
