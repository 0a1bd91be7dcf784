package io.redrive.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The queue peer comparison's cell names read back into cells and print the same. */
class QueueCellTest {

  @Test
  void parseAll_theDefaultCells_readAsEnqueueAndDrainCells() {
    List<QueueCell> cells = QueueCell.parseAll("enqueue-1,enqueue-1000,drain-16x10, drain-100x100");

    assertThat(cells)
        .containsExactly(
            new QueueCell(false, 0, 1),
            new QueueCell(false, 0, 1000),
            new QueueCell(true, 16, 10),
            new QueueCell(true, 100, 100));
    assertThat(cells.stream().map(QueueCell::name))
        .containsExactly("enqueue-1", "enqueue-1000", "drain-16x10", "drain-100x100");
  }

  @Test
  void parse_malformedOrEmptyCells_areRefused() {
    assertThatThrownBy(() -> QueueCell.parse("drain-16"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> QueueCell.parse("enqueue-0"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> QueueCell.parse("drain-0x10"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void parse_aFeatureSuffix_namesTheFlowControlTheCellUses() {
    List<QueueCell> cells =
        QueueCell.parseAll(
            "drain-16x10+prio,drain-100x100+limits,drain-16x10+rate,enqueue-1+unique");

    assertThat(cells.stream().map(QueueCell::feature))
        .containsExactly(
            QueueFeature.PRIO, QueueFeature.LIMITS, QueueFeature.RATE, QueueFeature.UNIQUE);
    assertThat(cells.stream().map(QueueCell::name))
        .containsExactly(
            "drain-16x10+prio", "drain-100x100+limits", "drain-16x10+rate", "enqueue-1+unique");
    assertThatThrownBy(() -> QueueCell.parse("drain-16x10+fast"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("+fast");
  }
}
