package io.redrive.bench.scenario;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cell of the queue peer comparison ({@code QueuePeers}), named as on its command line: {@code
 * enqueue-B} (producers enqueue B messages per call and transaction) or {@code drain-TxB} (a
 * backlog worked off by T handler threads leasing B at a time), either with a {@link QueueFeature}
 * suffix such as {@code +prio}.
 *
 * @param drain a drain cell; else an enqueue cell
 * @param threads handler threads of a drain cell (0 for an enqueue cell: its producers are a
 *     parameter of the whole run)
 * @param batch messages per enqueue call, or per lease
 * @param feature the flow control the cell uses ({@link QueueFeature#NONE} for a plain cell)
 */
public record QueueCell(boolean drain, int threads, int batch, QueueFeature feature) {
  private static final Pattern NAME =
      Pattern.compile("(?:enqueue-(\\d+)|drain-(\\d+)x(\\d+))(?:\\+([a-z]+))?");

  public QueueCell {
    if (batch < 1 || (drain && threads < 1) || (!drain && threads != 0)) {
      throw new IllegalArgumentException(
          "cell: threads " + threads + ", batch " + batch + ", drain " + drain);
    }
  }

  /** A plain cell. */
  public QueueCell(boolean drain, int threads, int batch) {
    this(drain, threads, batch, QueueFeature.NONE);
  }

  /** The cell a name such as {@code enqueue-1000} or {@code drain-16x10} gives. */
  public static QueueCell parse(String name) {
    Matcher m = NAME.matcher(name.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "not a cell (enqueue-B or drain-TxB, either + a feature): " + name);
    }
    QueueFeature feature = QueueFeature.of(m.group(4) == null ? "" : m.group(4));
    return m.group(1) != null
        ? new QueueCell(false, 0, Integer.parseInt(m.group(1)), feature)
        : new QueueCell(true, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), feature);
  }

  /** The cells of a comma-separated list of names. */
  public static List<QueueCell> parseAll(String names) {
    return Arrays.stream(names.split(",")).map(QueueCell::parse).toList();
  }

  /** The cell's name, as {@link #parse} reads it. */
  public String name() {
    return (drain ? "drain-" + threads + "x" + batch : "enqueue-" + batch) + feature.suffix();
  }
}
