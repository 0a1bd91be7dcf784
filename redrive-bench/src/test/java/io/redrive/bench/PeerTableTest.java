package io.redrive.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The peer comparison's plumbing: a child's line reads back, the table takes medians. */
class PeerTableTest {

  @Test
  void parse_printedLine_readsBackTheRound() {
    PeerRound round = new PeerRound("dbos", "fan-out 100", 20, 2.5, 40, 90, 14.25, 16, 2048);

    PeerRound back = PeerRound.parse(round.line());

    assertThat(back).isEqualTo(round);
    assertThat(back.instancesPerSecond()).isEqualTo(8.0);
  }

  @Test
  void markdown_twoRepetitions_mediansRatiosAndNaForMissingStatistics() {
    double na = Double.NaN;
    List<List<PeerRound>> reps =
        List.of(
            List.of(
                new PeerRound("redrive", "3 steps", 300, 5, 100, 200, na, na, na),
                new PeerRound("dbos", "3 steps", 300, 2.5, 10, 20, na, na, na)),
            List.of(
                new PeerRound("dbos", "3 steps", 300, 3, 12, 22, na, na, na),
                new PeerRound("redrive", "3 steps", 300, 6, 110, 210, na, na, na)));

    String table = PeerTable.markdown(List.of("redrive", "dbos"), reps);

    assertThat(table)
        .contains(
            "| redrive | 3 steps | 300 | 55.0 (50.0–60.0) | 1.00 | 105 | 205 | n/a | n/a | n/a |")
        .contains(
            "| dbos | 3 steps | 300 | 110.0 (100.0–120.0) | 0.50 | 11 | 21 | n/a | n/a | n/a |");
  }

  @Test
  void queueMarkdown_twoRepetitions_oneTablePerCellWithRatiosAndCostsPerMessage() {
    List<PeerRound> first =
        List.of(
            drain("redrive", 1, 0.3, 0.25, 1200),
            drain("db-scheduler", 2, 1.0, 1.0, 900),
            drain("raw", 0.5, 0.2, 0.2, 700),
            enqueue());
    List<PeerRound> second =
        List.of(
            drain("raw", 0.25, 0.2, 0.2, 700),
            drain("db-scheduler", 4, 1.0, 1.0, 1100),
            drain("redrive", 1, 0.3, 0.35, 1200),
            enqueue());
    List<List<PeerRound>> reps = List.of(first, second);

    String tables = PeerTable.queueMarkdown(List.of("redrive", "db-scheduler", "raw"), reps);

    assertThat(tables)
        .startsWith("#### drain-16x10\n")
        .contains("| redrive | 1000 | 1000 (1000–1000) | 1.00 | 0.300 | 0.300 | 1200 |")
        .contains("| db-scheduler | 1000 | 375 (250–500) | 3.00 | 1.000 | 1.000 | 1000 |")
        .contains("| raw | 1000 | 3000 (2000–4000) | 0.38 | 0.200 | 0.200 | 700 |")
        .contains("#### enqueue-1\n")
        .contains("| redrive | 1000 | 500 (500–500) | 1.00 | n/a | n/a | n/a |");
  }

  /** A queue round of 1 000 messages of cell drain-16x10. */
  private static PeerRound drain(
      String system, double seconds, double statements, double commits, double wal) {
    double na = Double.NaN;
    return new PeerRound(system, "drain-16x10", 1000, seconds, na, na, statements, commits, wal);
  }

  /** Redrive's enqueue-1 round of 1 000 messages in 2 s, without statistics. */
  private static PeerRound enqueue() {
    double na = Double.NaN;
    return new PeerRound("redrive", "enqueue-1", 1000, 2, na, na, na, na, na);
  }
}
