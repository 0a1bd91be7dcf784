package io.redrive.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/** The table {@link WorkflowPeers} prints: one row per system and shape, over the repetitions. */
final class PeerTable {
  private PeerTable() {}

  static String markdown(List<String> systems, List<List<PeerRound>> byRepetition) {
    Set<String> shapes = new LinkedHashSet<>();
    byRepetition.forEach(rep -> rep.forEach(r -> shapes.add(r.shape())));
    StringBuilder sb =
        new StringBuilder(
            "| system | shape | instances | instances/s median (min–max) | Redrive / system"
                + " | start→end p50 ms | p99 ms | statements/wf | commits/wf | WAL bytes/wf |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
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
        if (rates.isEmpty()) {
          continue;
        }
        sb.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %.1f (%.1f–%.1f) | %s | %.0f | %.0f | %s | %s | %s |%n",
                system,
                shape,
                instances,
                median(rates),
                rates.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                rates.stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
                ratios.isEmpty() ? "–" : String.format(Locale.ROOT, "%.2f", median(ratios)),
                median(p50),
                median(p99),
                perWorkflow(statements, "%.1f"),
                perWorkflow(commits, "%.1f"),
                perWorkflow(wal, "%.0f")));
      }
    }
    return sb.toString();
  }

  private static List<PeerRound> of(List<PeerRound> rounds, String system, String shape) {
    return rounds.stream()
        .filter(r -> r.system().equals(system) && r.shape().equals(shape))
        .toList();
  }

  private static double mean(List<PeerRound> rounds, ToDoubleFunction<PeerRound> f) {
    return rounds.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  private static String perWorkflow(List<Double> values, String format) {
    double m = median(values);
    return Double.isNaN(m) ? "n/a" : String.format(Locale.ROOT, format, m);
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
