package io.redrive.server.ui;

import java.util.List;

/**
 * The schedules list page's model: one page of the schedules the visitor may see, by name.
 *
 * @param rows this page's schedules
 * @param offset how many visible schedules come before this page
 * @param nextOffset the next page's offset, or null on the last page
 * @param total how many schedules the visitor may see in all
 */
public record SchedulesView(List<ScheduleRow> rows, int offset, Integer nextOffset, int total) {
  /** How many schedules a page shows. */
  public static final int PAGE = 100;

  /** The previous page's offset, or null on the first page. */
  public Integer previousOffset() {
    return offset == 0 ? null : Math.max(0, offset - PAGE);
  }
}
