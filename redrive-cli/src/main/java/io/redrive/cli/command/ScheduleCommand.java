package io.redrive.cli.command;

import picocli.CommandLine.Command;

/** {@code redrive schedule}: the recurring-schedule subcommands. */
@Command(
    name = "schedule",
    mixinStandardHelpOptions = true,
    description = "List, create, pause, resume, trigger and delete recurring schedules.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      ScheduleListCommand.class,
      ScheduleShowCommand.class,
      ScheduleCreateCommand.class,
      ScheduleDeleteCommand.class,
      ScheduleActionCommand.Pause.class,
      ScheduleActionCommand.Resume.class,
      ScheduleActionCommand.Trigger.class
    })
public final class ScheduleCommand {}
