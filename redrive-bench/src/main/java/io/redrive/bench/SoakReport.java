package io.redrive.bench;

import io.redrive.bench.WorkflowSoak.Sample;
import io.redrive.bench.contender.TableStats;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The soak's markdown: a table per sample and the summary, whose verdict per table is "levels off"
 * when it grew by at most one 8 kB page a minute over the last third of the run.
 */
final class SoakReport {
  /** Growth over the last third at or under which a table levels off: a page a minute. */
  static final double LEVEL_KB_PER_MINUTE = 8;

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  private SoakReport() {}

  static String sample(Sample s) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "%n## minute %.1f (%s): started %d, deleted %d (failed %d), errors %d%n%n",
            s.minutes(),
            TIME.format(s.at()),
            s.counts().started(),
            s.counts().deleted(),
            s.counts().failed(),
            s.counts().errors()));
    b.append(
        "| table | total kB | heap kB | index kB | live | dead | upd | hot upd | autovacuums |"
            + " last autovacuum |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (TableStats.Table t : s.tables()) {
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s |%n",
              t.table(),
              t.totalBytes() / 1024,
              t.heapBytes() / 1024,
              t.indexBytes() / 1024,
              t.liveTuples(),
              t.deadTuples(),
              t.updates(),
              t.hotUpdates(),
              t.autovacuums(),
              t.lastAutovacuum() == null ? "never" : TIME.format(t.lastAutovacuum())));
    }
    return b.toString();
  }

  /**
   * Per table: total size at minute 5 (or the sample nearest it), at half time and at the end, the
   * growth per minute over the middle and the last third, and the verdict; then the indexes that
   * grew faster than a page a minute over the last third.
   */
  static String summary(List<Sample> samples) {
    Sample last = samples.get(samples.size() - 1);
    double end = last.minutes();
    Sample five = nearest(samples, 5);
    Sample half = nearest(samples, end / 2);
    Sample oneThird = nearest(samples, end / 3);
    Sample twoThirds = nearest(samples, end * 2 / 3);
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "%n## Summary: %.1f minutes, %d instances started, %d deleted%n%n"
                + "| table | kB at min %.0f | kB at min %.0f | kB at min %.0f | kB/min, middle third"
                + " | kB/min, last third | verdict |%n|---|---:|---:|---:|---:|---:|---|%n",
            end,
            last.counts().started(),
            last.counts().deleted(),
            five.minutes(),
            half.minutes(),
            end));
    for (TableStats.Table t : last.tables()) {
      double middle = perMinute(oneThird, twoThirds, t.table());
      double late = perMinute(twoThirds, last, t.table());
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %d | %d | %+.1f | %+.1f | %s |%n",
              t.table(),
              total(five, t.table()) / 1024,
              total(half, t.table()) / 1024,
              t.totalBytes() / 1024,
              middle,
              late,
              late <= LEVEL_KB_PER_MINUTE ? "levels off" : "GROWS"));
    }
    Map<String, Long> before = indexes(twoThirds);
    StringBuilder growing = new StringBuilder();
    double minutes = last.minutes() - twoThirds.minutes();
    indexes(last)
        .forEach(
            (index, bytes) -> {
              double rate =
                  minutes <= 0 ? 0 : (bytes - before.getOrDefault(index, 0L)) / 1024.0 / minutes;
              if (rate > LEVEL_KB_PER_MINUTE) {
                growing.append(
                    String.format(
                        Locale.ROOT,
                        "| %s | %d | %d | %+.1f |%n",
                        index,
                        before.getOrDefault(index, 0L) / 1024,
                        bytes / 1024,
                        rate));
              }
            });
    if (growing.length() > 0) {
      b.append(
              String.format(
                  Locale.ROOT,
                  "%nIndexes growing over the last third:%n%n| index | kB at min %.0f | kB at end"
                      + " | kB/min |%n|---|---:|---:|---:|%n",
                  twoThirds.minutes()))
          .append(growing);
    }
    return b.toString();
  }

  private static Sample nearest(List<Sample> samples, double minute) {
    return samples.stream()
        .min(Comparator.comparingDouble(s -> Math.abs(s.minutes() - minute)))
        .orElseThrow();
  }

  private static double perMinute(Sample from, Sample to, String table) {
    double minutes = to.minutes() - from.minutes();
    return minutes <= 0 ? 0 : (total(to, table) - total(from, table)) / 1024.0 / minutes;
  }

  private static long total(Sample s, String table) {
    return find(s, table).map(TableStats.Table::totalBytes).orElse(0L);
  }

  private static Optional<TableStats.Table> find(Sample s, String table) {
    return s.tables().stream().filter(t -> t.table().equals(table)).findFirst();
  }

  private static Map<String, Long> indexes(Sample s) {
    Map<String, Long> out = new TreeMap<>();
    for (TableStats.Table t : s.tables()) {
      out.putAll(t.indexes());
    }
    return out;
  }
}
