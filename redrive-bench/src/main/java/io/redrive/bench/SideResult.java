package io.redrive.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The repetitions of one side (ours or the baseline) of a cell.
 *
 * @param label what ran (e.g. "redrive worker" or "raw SQL (cycle.sql)")
 * @param values the headline figure of each repetition, in run order
 * @param median median of {@code values}
 * @param min smallest of {@code values}
 * @param max largest of {@code values}
 * @param details per detail key: the median over repetitions for numbers, the last run's value
 *     otherwise
 */
public record SideResult(
    String label,
    List<Double> values,
    double median,
    double min,
    double max,
    Map<String, Object> details) {

  static SideResult of(String label, List<Measurement> runs) {
    List<Double> values = runs.stream().map(Measurement::value).toList();
    Map<String, Object> details = new LinkedHashMap<>();
    for (Measurement m : runs) {
      for (String key : m.details().keySet()) {
        details.putIfAbsent(key, null);
      }
    }
    for (String key : details.keySet()) {
      List<Double> numbers = new ArrayList<>();
      Object last = null;
      for (Measurement m : runs) {
        Object v = m.details().get(key);
        if (v instanceof Number n) {
          numbers.add(n.doubleValue());
        } else if (v != null) {
          last = v;
        }
      }
      details.put(key, numbers.isEmpty() ? last : median(numbers));
    }
    return new SideResult(
        label,
        values,
        median(values),
        values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
        values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
        details);
  }

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
