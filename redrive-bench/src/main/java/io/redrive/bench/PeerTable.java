package io.redrive.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The tables {@link WorkflowPeers} and {@link QueuePeers} print: one row per system and shape (a
 * workflow shape or a queue cell), over the repetitions.
 */
final class PeerTable {
  /** One system's rounds of one shape summed up over the repetitions (medians, and the range). */
  record Row(
      String system,
      String shape,
      int instances,
      List<Double> rates,
      double ratio,
      double p50,
      double p99,
      double statements,
      double commits,
      double wal) {
    double rate() {
      return median(rates);
    }

    double min() {
      return rates.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    double max() {
      return rates.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    String ratioText() {
      return Double.isNaN(ratio) ? "–" : String.format(Locale.ROOT, "%.2f", ratio);
    }
  }

  private PeerTable() {}

  /** The workflow table: every shape in one table, with start-to-end latencies. */
  static String markdown(List<String> systems, List<List<PeerRound>> byRepetition) {
    StringBuilder sb =
        new StringBuilder(
            "| system | shape | instances | instances/s median (min–max) | Redrive / system"
                + " | start→end p50 ms | p99 ms | statements/wf | commits/wf | WAL bytes/wf |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Row r : rows(systems, byRepetition)) {
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %.1f (%.1f–%.1f) | %s | %.0f | %.0f | %s | %s | %s |%n",
              r.system,
              r.shape,
              r.instances,
              r.rate(),
              r.min(),
              r.max(),
              r.ratioText(),
              r.p50,
              r.p99,
              perUnit(r.statements, "%.1f"),
              perUnit(r.commits, "%.1f"),
              perUnit(r.wal, "%.0f")));
    }
    return sb.toString();
  }

  /** The queue tables: one per cell, without latencies, the costs per message. */
  static String queueMarkdown(List<String> systems, List<List<PeerRound>> byRepetition) {
    StringBuilder sb = new StringBuilder();
    String shape = null;
    for (Row r : rows(systems, byRepetition)) {
      if (!r.shape.equals(shape)) {
        shape = r.shape;
        sb.append(sb.length() == 0 ? "" : "\n")
            .append("#### ")
            .append(shape)
            .append("\n\n| system | messages | msgs/s median (min–max) | Redrive / system")
            .append(" | statements/msg | commits/msg | WAL bytes/msg |\n")
            .append("|---|---:|---:|---:|---:|---:|---:|\n");
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.0f (%.0f–%.0f) | %s | %s | %s | %s |%n",
              r.system,
              r.instances,
              r.rate(),
              r.min(),
              r.max(),
              r.ratioText(),
              perUnit(r.statements, "%.3f"),
              perUnit(r.commits, "%.3f"),
              perUnit(r.wal, "%.0f")));
    }
    return sb.toString();
  }

  /**
   * One row per shape and system (shapes in the order first seen): rates per repetition, the median
   * of the repetitions' Redrive-over-system ratios, and medians of everything else.
   */
  static List<Row> rows(List<String> systems, List<List<PeerRound>> byRepetition) {
    Set<String> shapes = new LinkedHashSet<>();
    byRepetition.forEach(rep -> rep.forEach(r -> shapes.add(r.shape())));
    List<Row> rows = new ArrayList<>();
    for (String shape : shapes) {
      for (String system : systems) {
        List<Double> rates = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> statements = new ArrayList<>();
        List<Double> commits = new ArrayList<>();
        List<Double> wal = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        int instances = 0;
        for (List<PeerRound> rep : byRepetition) {
          List<PeerRound> mine = of(rep, system, shape);
          if (mine.isEmpty()) {
            continue;
          }
          instances = mine.get(0).instances();
          double rate = mean(mine, PeerRound::instancesPerSecond);
          rates.add(rate);
          List<PeerRound> redrive = of(rep, "redrive", shape);
          if (!redrive.isEmpty()) {
            ratios.add(mean(redrive, PeerRound::instancesPerSecond) / rate);
          }
          statements.add(mean(mine, PeerRound::statements));
          commits.add(mean(mine, PeerRound::commits));
          wal.add(mean(mine, PeerRound::walBytes));
          mine.forEach(r -> p50.add(r.p50Ms()));
          mine.forEach(r -> p99.add(r.p99Ms()));
        }
        if (!rates.isEmpty()) {
          rows.add(
              new Row(
                  system,
                  shape,
                  instances,
                  rates,
                  median(ratios),
                  median(p50),
                  median(p99),
                  median(statements),
                  median(commits),
                  median(wal)));
        }
      }
    }
    return rows;
  }

  private static List<PeerRound> of(List<PeerRound> rounds, String system, String shape) {
    return rounds.stream()
        .filter(r -> r.system().equals(system) && r.shape().equals(shape))
        .toList();
  }

  private static double mean(List<PeerRound> rounds, ToDoubleFunction<PeerRound> f) {
    return rounds.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  private static String perUnit(double median, String format) {
    return Double.isNaN(median) ? "n/a" : String.format(Locale.ROOT, format, median);
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
