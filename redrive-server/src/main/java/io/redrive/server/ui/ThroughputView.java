package io.redrive.server.ui;

import io.redrive.queue.ThroughputPoint;
import java.util.List;

/**
 * The throughput of a {@link ChartRange} as the overview and queue pages show it: chart data for
 * uPlot and the totals as text (which is what a page without JavaScript shows).
 *
 * @param range the time range shown
 * @param throughputChart enqueued / completed / failed / dead per minute ({@link
 *     Charts#throughput})
 * @param depthChart depth by state per minute ({@link Charts#depth})
 * @param backlogChart the scheduled-retry backlog per minute ({@link Charts#backlog})
 * @param enqueued enqueued in the window
 * @param completed completed in the window
 * @param failed failed attempts in the window
 * @param dead deaths in the window
 */
public record ThroughputView(
    ChartRange range,
    String throughputChart,
    String depthChart,
    String backlogChart,
    long enqueued,
    long completed,
    long failed,
    long dead) {

  /** The view of {@code points}, read over {@code range}. */
  static ThroughputView of(ChartRange range, List<ThroughputPoint> points) {
    return new ThroughputView(
        range,
        Charts.throughput(points),
        Charts.depth(points),
        Charts.backlog(points),
        Charts.total(points, ThroughputPoint::enqueued),
        Charts.total(points, ThroughputPoint::completed),
        Charts.total(points, ThroughputPoint::failed),
        Charts.total(points, ThroughputPoint::dead));
  }

  /** Every range the page offers, in order, for its range links. */
  public List<ChartRange> ranges() {
    return List.of(ChartRange.values());
  }
}
