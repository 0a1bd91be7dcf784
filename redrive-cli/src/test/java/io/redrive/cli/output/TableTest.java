package io.redrive.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableTest {
  @Test
  void render_cellsOfDifferentWidths_padsColumnsTwoSpacesApart() {
    String text = Table.of("NAME", "READY").row("orders", 3).row("emails.dlq", 12).render();

    assertThat(text).isEqualTo("NAME        READY\norders      3\nemails.dlq  12\n");
  }

  @Test
  void render_rightAlignedColumn_padsOnTheLeft() {
    String text = Table.of("NAME", "READY").alignRight(1).row("a", 3).row("b", 120).render();

    assertThat(text).isEqualTo("NAME  READY\na         3\nb       120\n");
  }

  @Test
  void render_nullAndMultiLineCells_printDashAndOneLine() {
    String text = Table.withoutHeader(3).row("x", null, "first\n  second").render();

    assertThat(text).isEqualTo("x  -  first second\n");
  }

  @Test
  void render_cellLongerThanMaxWidth_isCutWithEllipsis() {
    String text = Table.withoutHeader(2).maxWidth(1, 8).row("k", "abcdefghijkl").render();

    assertThat(text).isEqualTo("k  abcde...\n");
  }

  @Test
  void render_shortRows_fillEmptyCellsAndTrimTrailingBlanks() {
    String text = Table.of("A", "B", "C").row("1").row("22", "x", "y").render();

    assertThat(text).isEqualTo("A   B  C\n1\n22  x  y\n");
  }

  @Test
  void row_moreCellsThanColumns_isRefused() {
    assertThatThrownBy(() -> Table.of("A").row("1", "2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 cells");
  }
}
