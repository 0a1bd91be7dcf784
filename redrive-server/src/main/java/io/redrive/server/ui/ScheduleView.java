package io.redrive.server.ui;

import io.redrive.schedule.Firing;

/**
 * The schedule page's model.
 *
 * @param row the schedule and where its firing stands
 * @param mayAct true when the visitor may pause, resume and trigger it (buttons are shown)
 * @param fired what "Trigger now" just produced, or null
 * @param payload the message target's payload, pretty-printed when it is JSON, or null
 * @param input the workflow target's input, pretty-printed when it is JSON, or null
 */
public record ScheduleView(
    ScheduleRow row, boolean mayAct, Firing fired, String payload, String input) {

  /** The dashboard page of what {@link #fired} produced: its message or its workflow instance. */
  public String firedLink() {
    if (fired == null) {
      return null;
    }
    return (row.message() != null ? "/ui/messages/" : "/ui/workflows/")
        + Fmt.seg(fired.producedId());
  }
}
