package io.redrive.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's Markdown (README, CONTRIBUTING, docs/) leads somewhere:
 * the file exists, and a {@code #section} names a heading of that file (GitHub's anchors: lower
 * case, punctuation dropped, spaces as hyphens). A renamed section or a moved picture fails here
 * instead of on a reader.
 */
class DocsLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** {@code [text](target)} and {@code ![alt](target)}; a title after the target is ignored. */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

  @Test
  void relativeLinks_leadToFilesAndHeadingsThatExist() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path doc : documents()) {
      String text = withoutCodeBlocks(Files.readString(doc));
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue; // http:, https:, mailto:
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        String where = ROOT.relativize(doc) + ": " + target;
        if (!Files.exists(to)) {
          broken.add(where + " (no such file)");
        } else if (anchor != null
            && to.toString().endsWith(".md")
            && !anchors(to).contains(anchor)) {
          broken.add(where + " (no such heading)");
        }
      }
    }
    assertThat(broken).isEmpty();
  }

  private static List<Path> documents() throws IOException {
    List<Path> out = new ArrayList<>();
    out.add(ROOT.resolve("README.md"));
    out.add(ROOT.resolve("CONTRIBUTING.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
    }
    return out;
  }

  /** The anchors GitHub gives the headings of {@code doc} (a repeated heading gets -1, -2 …). */
  static Set<String> anchors(Path doc) throws IOException {
    Set<String> out = new HashSet<>();
    for (String line : withoutCodeBlocks(Files.readString(doc)).split("\n")) {
      Matcher m = HEADING.matcher(line);
      if (m.matches()) {
        String slug = slug(m.group(1));
        String unique = slug;
        for (int n = 1; out.contains(unique); n++) {
          unique = slug + "-" + n;
        }
        out.add(unique);
      }
    }
    return out;
  }

  static String slug(String heading) {
    String plain = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
    return plain.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
  }

  /** The text with fenced code blocks blanked, so a link or heading shown as code is not one. */
  private static String withoutCodeBlocks(String text) {
    StringBuilder out = new StringBuilder();
    boolean inFence = false;
    for (String line : text.split("\n", -1)) {
      if (line.trim().startsWith("```")) {
        inFence = !inFence;
        out.append('\n');
        continue;
      }
      out.append(inFence ? "" : line).append('\n');
    }
    return out.toString();
  }
}
