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
}
