package io.redrive.server.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.queue.ThroughputPoint;
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
  static String throughput(List<ThroughputPoint> points) {
    ObjectNode chart = chart("Throughput per minute", points);
    ArrayNode series = chart.putArray("series");
    add(series, "enqueued", points, ThroughputPoint::enqueued);
    add(series, "completed", points, ThroughputPoint::completed);
    add(series, "failed", points, ThroughputPoint::failed);
    add(series, "dead", points, ThroughputPoint::dead);
    return write(chart);
  }

  /** Depth by state at each minute's snapshot (gaps where no sweep took one). */
  static String depth(List<ThroughputPoint> points) {
    ObjectNode chart = chart("Depth", points);
    ArrayNode series = chart.putArray("series");
    addDepth(series, "ready", points, ThroughputPoint.Depth::ready);
    addDepth(series, "scheduled", points, ThroughputPoint.Depth::scheduled);
    addDepth(series, "leased", points, ThroughputPoint.Depth::leased);
    addDepth(series, "dead", points, ThroughputPoint.Depth::dead);
    return write(chart);
  }

  /** The scheduled-retry backlog: ready messages waiting for their backoff, per minute. */
  static String backlog(List<ThroughputPoint> points) {
    ObjectNode chart = chart("Scheduled (retry backlog)", points);
    addDepth(chart.putArray("series"), "scheduled", points, ThroughputPoint.Depth::scheduled);
    return write(chart);
  }

  /** The sum of one counter over every point. */
  static long total(List<ThroughputPoint> points, ToLongFunction<ThroughputPoint> counter) {
    long n = 0;
    for (ThroughputPoint p : points) {
      n += counter.applyAsLong(p);
    }
    return n;
  }

  private static ObjectNode chart(String title, List<ThroughputPoint> points) {
    ObjectNode chart = JSON.createObjectNode();
    chart.put("title", title);
    ArrayNode x = chart.putArray("x");
    for (ThroughputPoint p : points) {
      x.add(p.minute().getEpochSecond());
    }
    return chart;
  }

  private static void add(
      ArrayNode series,
      String label,
      List<ThroughputPoint> points,
      ToLongFunction<ThroughputPoint> f) {
    ObjectNode s = series.addObject().put("label", label);
    ArrayNode values = s.putArray("values");
    for (ThroughputPoint p : points) {
      values.add(f.applyAsLong(p));
    }
  }

  private static void addDepth(
      ArrayNode series,
      String label,
      List<ThroughputPoint> points,
      Function<ThroughputPoint.Depth, Long> f) {
    ObjectNode s = series.addObject().put("label", label);
    ArrayNode values = s.putArray("values");
    for (ThroughputPoint p : points) {
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
