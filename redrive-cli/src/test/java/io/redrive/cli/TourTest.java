package io.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.message.MessageQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the README's CLI tour as written, command by command, through the CLI entry point against a
 * real server: every command must succeed, the ids it captures must be real, and the tour must end
 * with its dead letter redriven and completed.
 */
class TourTest {
  private static final Pattern CAPTURE = Pattern.compile("^(\\w+)=\\$\\((.*?)\\)\\s*(#.*)?$");

  @TempDir Path dir;

  @Test
  void readmeCliTour_runsAsWritten_makesADeadLetterAndRedrivesIt() throws IOException {
    List<String> tour = tour();
    assertThat(tour).anyMatch(l -> l.startsWith("./redrive server &"));
    Map<String, String> vars = new HashMap<>();
    List<String> ran = new ArrayList<>();
    try (TestServer server = TestServer.start(dir.resolve("data"))) {
      for (String line : tour) {
        if (line.startsWith("./redrive server &") || line.startsWith("kill %1")) {
          continue; // the test's server plays the tour's background server
        }
        Matcher capture = CAPTURE.matcher(line);
        String variable = null;
        String command = line;
        if (capture.matches()) {
          variable = capture.group(1);
          command = capture.group(2);
        }
        List<String> words = words(command, vars);
        assertThat(words.get(0)).as(line).isEqualTo("./redrive");
        Cli.Result r = server.cli(words.subList(1, words.size()).toArray(String[]::new));
        assertThat(r.exit()).as(line + "\n" + r).isZero();
        if (variable != null) {
          assertThat(r.out().strip()).as(line).isNotBlank().doesNotContain("\n");
          vars.put(variable, r.out().strip());
        }
        ran.add(words.get(1));
      }
      assertThat(ran).contains("lease", "fail", "work", "message", "queue", "enqueue");
      assertThat(vars).containsKeys("T", "DEAD");
      // the dead letter was redriven into orders and the last `work` completed it
      assertThat(server.redrive().listMessages(MessageQuery.all("orders")).messages()).isEmpty();
      assertThat(server.redrive().listMessages(MessageQuery.all("orders.dlq")).messages())
          .isEmpty();
      assertThat(server.redrive().stats("orders").total()).isZero();
    }
  }

  /** The commands of the README's first bash block under "## CLI", comments and blanks left out. */
  static List<String> tour() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    int section = readme.indexOf("\n## CLI\n");
    int start = readme.indexOf("```bash\n", section) + "```bash\n".length();
    int end = readme.indexOf("```", start);
    List<String> lines = new ArrayList<>();
    for (String line : readme.substring(start, end).split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        lines.add(line.strip());
      }
    }
    return lines;
  }

  /**
   * Splits a shell command line as bash would for the forms the tour uses: single quotes literal,
   * double quotes and bare words with {@code $VAR} expanded, {@code #} starting a comment.
   */
  static List<String> words(String line, Map<String, String> vars) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    int i = 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        i++;
      } else if (c == '#' && word == null) {
        break;
      } else {
        if (word == null) {
          word = new StringBuilder();
        }
        if (c == '\'') {
          int close = line.indexOf('\'', i + 1);
          word.append(line, i + 1, close);
          i = close + 1;
        } else if (c == '"') {
          int close = line.indexOf('"', i + 1);
          word.append(expand(line.substring(i + 1, close), vars));
          i = close + 1;
        } else if (c == '$') {
          int j = i + 1;
          while (j < line.length()
              && (Character.isLetterOrDigit(line.charAt(j)) || line.charAt(j) == '_')) {
            j++;
          }
          word.append(value(line.substring(i + 1, j), vars));
          i = j;
        } else {
          word.append(c);
          i++;
        }
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  private static String expand(String text, Map<String, String> vars) {
    Matcher m = Pattern.compile("\\$(\\w+)").matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(sb, Matcher.quoteReplacement(value(m.group(1), vars)));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  private static String value(String name, Map<String, String> vars) {
    String v = vars.get(name);
    if (v == null) {
      throw new AssertionError("the tour uses $" + name + " before setting it");
    }
    return v;
  }
}
