/**
 * Recurring schedules: a {@link io.redrive.schedule.Schedule} names a {@link
 * io.redrive.schedule.ScheduleSpec} (a cron expression in a time zone, or a fixed interval) and a
 * {@link io.redrive.schedule.ScheduleTarget} (a message or a workflow start) that the store
 * produces exactly once per due time, across any number of nodes; {@link
 * io.redrive.schedule.CatchUp} says what happens to due times missed while no node ran. The
 * due-time arithmetic ({@link io.redrive.schedule.DueTimes}) is pure, so the stores apply the same
 * rules inside their firing transaction.
 */
package io.redrive.schedule;
