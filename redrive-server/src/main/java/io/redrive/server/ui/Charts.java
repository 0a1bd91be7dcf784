package io.redrive.server.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.queue.ActivityPoint;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The data of the dashboard's charts, as the JSON that dashboard.js hands to uPlot: {@code
 * {"title", "x": [epoch seconds], "series": [{"label", "values"}]}}. It travels in an attribute,
 * which the template escapes; no script is ever generated.
 */
final class Charts {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Charts() {}

  /** Enqueued, completed, failed and dead per minute. */
  static String activity(List<ActivityPoint> points) {
    ObjectNode chart = chart("Per minute", points);
    ArrayNode series = chart.putArray("series");
    add(series, "enqueued", points, ActivityPoint::enqueued);
    add(series, "completed", points, ActivityPoint::completed);
    add(series, "failed", points, ActivityPoint::failed);
    add(series, "dead", points, ActivityPoint::dead);
    return write(chart);
  }

  /** Depth by state at each minute's snapshot (gaps where no sweep took one). */
  static String depth(List<ActivityPoint> points) {
    ObjectNode chart = chart("Depth", points);
    ArrayNode series = chart.putArray("series");
    addDepth(series, "ready", points, ActivityPoint.Depth::ready);
    addDepth(series, "scheduled", points, ActivityPoint.Depth::scheduled);
    addDepth(series, "leased", points, ActivityPoint.Depth::leased);
    addDepth(series, "dead", points, ActivityPoint.Depth::dead);
    return write(chart);
  }

  /** The scheduled-retry backlog: ready messages waiting for their backoff, per minute. */
  static String backlog(List<ActivityPoint> points) {
    ObjectNode chart = chart("Scheduled (retry backlog)", points);
    addDepth(chart.putArray("series"), "scheduled", points, ActivityPoint.Depth::scheduled);
    return write(chart);
  }

  /** The sum of one counter over every point. */
  static long total(List<ActivityPoint> points, ToLongFunction<ActivityPoint> counter) {
    long n = 0;
    for (ActivityPoint p : points) {
      n += counter.applyAsLong(p);
    }
    return n;
  }

  private static ObjectNode chart(String title, List<ActivityPoint> points) {
    ObjectNode chart = JSON.createObjectNode();
    chart.put("title", title);
    ArrayNode x = chart.putArray("x");
    for (ActivityPoint p : points) {
      x.add(p.minute().getEpochSecond());
    }
    return chart;
  }

  private static void add(
      ArrayNode series, String label, List<ActivityPoint> points, ToLongFunction<ActivityPoint> f) {
    ObjectNode s = series.addObject().put("label", label);
    ArrayNode values = s.putArray("values");
    for (ActivityPoint p : points) {
      values.add(f.applyAsLong(p));
    }
  }

  private static void addDepth(
      ArrayNode series,
      String label,
      List<ActivityPoint> points,
      Function<ActivityPoint.Depth, Long> f) {
    ObjectNode s = series.addObject().put("label", label);
    ArrayNode values = s.putArray("values");
    for (ActivityPoint p : points) {
      if (p.depth() == null) {
        values.addNull();
      } else {
        values.add(f.apply(p.depth()));
      }
    }
  }

  private static String write(ObjectNode chart) {
    try {
      return JSON.writeValueAsString(chart);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write chart data", e);
    }
  }
}
