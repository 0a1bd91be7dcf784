package io.redrive.server.ui;

import java.util.ArrayList;
import java.util.List;

/**
 * Where one page of a forward-paged list stands (the queue's messages, the workflow instances, an
 * instance's history): this page's cursor ({@code after}) and the cursors of the pages before it
 * ({@code back}, oldest first, {@code first} for the first page). The store pages forward only, so
 * the way back travels in the links: "previous" pops the last cursor, "next" pushes this page's.
 * Only the last {@link #MAX_BACK} are kept (a link stays short); past them "previous" goes to the
 * first page. No store change is needed, and a previous page is read exactly as it was first read.
 *
 * @param afterParam the query parameter holding this page's cursor (e.g. {@code after})
 * @param backParam the query parameter holding the trail (e.g. {@code back})
 * @param after this page's cursor, or null for the first page
 * @param back the cursors of the pages before, oldest first
 */
record Paging(String afterParam, String backParam, String after, List<String> back) {
  static final int MAX_BACK = 50;
  private static final String FIRST = "first";

  /**
   * The paging in {@code r}'s query string under {@code afterParam} and {@code backParam}; a cursor
   * this dashboard did not make (every store cursor is a number) is refused, naming the parameter.
   */
  static Paging of(UiRequest r, String afterParam, String backParam) {
    String after = r.query(afterParam);
    if (after != null && after.isBlank()) {
      after = null;
    }
    if (after != null) {
      cursor(afterParam, after);
    }
    List<String> back = new ArrayList<>();
    String text = r.query(backParam);
    if (text != null && !text.isBlank()) {
      for (String c : text.split(",")) {
        back.add(c.equals(FIRST) ? FIRST : cursor(backParam, c));
      }
    }
    if (back.size() > MAX_BACK) {
      back = new ArrayList<>(back.subList(back.size() - MAX_BACK, back.size()));
    }
    return new Paging(afterParam, backParam, after, List.copyOf(back));
  }

  private static String cursor(String field, String value) {
    // A sequence number, or a completed message's completion time and id (kept stories page
    // newest first by both).
    if (!value.matches("[0-9]{1,19}(\\.[0-9a-f-]{1,64})?")) {
      throw new IllegalArgumentException(
          field + ": not a cursor this dashboard gave, was \"" + value + "\"");
    }
    return value;
  }

  /** The query string of the page after this one (whose cursor is {@code next}). */
  String nextParams(String next) {
    List<String> b = new ArrayList<>(back);
    b.add(after == null ? FIRST : after);
    if (b.size() > MAX_BACK) {
      b = b.subList(b.size() - MAX_BACK, b.size());
    }
    return afterParam + "=" + next + "&" + backParam + "=" + String.join(",", b);
  }

  /** The query string of the page before this one, or null on the first page. */
  String previousParams() {
    if (after == null) {
      return null;
    }
    if (back.isEmpty()) {
      return ""; // the trail was cut: the first page
    }
    String last = back.get(back.size() - 1);
    List<String> rest = back.subList(0, back.size() - 1);
    StringBuilder b = new StringBuilder();
    if (!last.equals(FIRST)) {
      b.append(afterParam).append('=').append(last);
    }
    if (!rest.isEmpty()) {
      b.append(b.length() == 0 ? "" : "&").append(backParam).append('=');
      b.append(String.join(",", rest));
    }
    return b.toString();
  }
}
