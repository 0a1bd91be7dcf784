package io.redrive.workflow.replay;

/** A task that knows where in history it ended ({@code anyOf} picks the earliest). */
interface Positioned {
  int position();
}
