package io.redrive.cli.output;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table: columns padded to their widest cell, two spaces apart, trailing blanks
 * trimmed. Null cells print as {@code -}; line breaks in a cell print as spaces. Not thread-safe.
 */
public final class Table {
  private final String[] header;
  private final boolean[] right;
  private final int[] maxWidth;
  private final List<String[]> rows = new ArrayList<>();

  private Table(String[] header, int columns) {
    this.header = header;
    this.right = new boolean[columns];
    this.maxWidth = new int[columns];
  }

  /** A table with a header row. */
  public static Table of(String... header) {
    return new Table(header.clone(), header.length);
  }

  /** A table of {@code columns} columns and no header row (e.g. a timeline). */
  public static Table withoutHeader(int columns) {
    return new Table(null, columns);
  }

  /** Right-aligns the given columns (counts, numbers). */
  public Table alignRight(int... columns) {
    for (int c : columns) {
      right[c] = true;
    }
    return this;
  }

  /** Cuts cells of {@code column} longer than {@code width} characters, ending them with "...". */
  public Table maxWidth(int column, int width) {
    maxWidth[column] = Math.max(4, width);
    return this;
  }

  /** Adds a row; missing trailing cells are empty. */
  public Table row(Object... cells) {
    if (cells.length > right.length) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, the table " + right.length + " columns");
    }
    String[] row = new String[right.length];
    Arrays.fill(row, "");
    for (int i = 0; i < cells.length; i++) {
      row[i] = cell(i, cells[i]);
    }
    rows.add(row);
    return this;
  }

  public int size() {
    return rows.size();
  }

  /** The table as text, one line per row, each ending with a line break. */
  public String render() {
    List<String[]> lines = new ArrayList<>();
    if (header != null) {
      lines.add(header);
    }
    lines.addAll(rows);
    int[] width = new int[right.length];
    for (String[] line : lines) {
      for (int c = 0; c < line.length; c++) {
        width[c] = Math.max(width[c], line[c].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] line : lines) {
      StringBuilder text = new StringBuilder();
      for (int c = 0; c < line.length; c++) {
        if (c > 0) {
          text.append("  ");
        }
        String pad = " ".repeat(width[c] - line[c].length());
        text.append(right[c] ? pad + line[c] : line[c] + pad);
      }
      sb.append(text.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return render();
  }

  private String cell(int column, Object value) {
    String text = value == null ? "-" : value.toString().replaceAll("\\s*\\R\\s*", " ");
    int max = maxWidth[column];
    if (max > 0 && text.length() > max) {
      text = text.substring(0, max - 3) + "...";
    }
    return text;
  }
}
