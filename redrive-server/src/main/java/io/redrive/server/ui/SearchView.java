package io.redrive.server.ui;

import io.redrive.message.SearchHit;
import java.util.List;

/**
 * The search page's model: what was typed, and the messages it found (none or several; one opens
 * its message page directly).
 */
public record SearchView(String q, List<SearchHit> hits) {
  public SearchView {
    hits = List.copyOf(hits);
  }

  /** How a hit matched, in words. */
  public static String how(SearchHit hit) {
    return switch (hit.match()) {
      case ID -> "its id";
      case PREFIX -> "the start of its id";
      case MOVED -> "an id it had before it moved";
      case DEDUPE_KEY -> "its dedupe key";
    };
  }
}
