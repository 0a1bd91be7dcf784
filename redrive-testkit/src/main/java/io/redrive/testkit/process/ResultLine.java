package io.redrive.testkit.process;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * One completion as recorded by a handler (in a child or the test JVM) just before it returned: the
 * message, the attempt, the worker, and the message's history up to this delivery — captured then
 * because completing deletes the message and its history. One tab-separated line in a results file.
 *
 * @param id the message id
 * @param type the message type
 * @param attempt the delivery that completed it (1 = first)
 * @param worker the worker that ran it
 * @param history the history entries at that moment, oldest first (the last is this delivery)
 */
public record ResultLine(String id, String type, int attempt, String worker, List<Step> history) {

  public ResultLine {
    history = List.copyOf(history);
  }

  /**
   * One history entry, reduced to what the scenarios check.
   *
   * @param outcome how the delivery or action ended
   * @param attempt the attempt number it belongs to
   * @param worker the worker that held the lease, or null
   * @param reason the failure reason, or null
   */
  public record Step(Outcome outcome, int attempt, String worker, FailureReason reason) {
    public static Step of(HistoryEntry e) {
      return new Step(
          e.outcome(), e.attempt(), e.worker(), e.failure() == null ? null : e.failure().reason());
    }

    String format() {
      return outcome
          + "|"
          + attempt
          + "|"
          + (worker == null ? "" : worker)
          + "|"
          + (reason == null ? "" : reason);
    }

    static Step parse(String text) {
      String[] p = text.split("\\|", -1);
      return new Step(
          Outcome.valueOf(p[0]),
          Integer.parseInt(p[1]),
          p[2].isEmpty() ? null : p[2],
          p[3].isEmpty() ? null : FailureReason.valueOf(p[3]));
    }
  }

  /** Steps of {@code entries}. */
  public static List<Step> steps(List<HistoryEntry> entries) {
    return entries.stream().map(Step::of).toList();
  }

  /** Appends this line to {@code file} in one write, so lines of several processes never mix. */
  public void appendTo(Path file) {
    try {
      Files.writeString(
          file,
          format() + "\n",
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** This line as written to a results file (no newline). */
  public String format() {
    return String.join(
        "\t",
        id,
        type,
        Integer.toString(attempt),
        worker,
        String.join(",", history.stream().map(Step::format).toList()));
  }

  public static ResultLine parse(String line) {
    String[] p = line.split("\t", -1);
    if (p.length != 5) {
      throw new IllegalArgumentException("not a result line: \"" + line + "\"");
    }
    List<Step> steps =
        p[4].isEmpty() ? List.of() : Arrays.stream(p[4].split(",")).map(Step::parse).toList();
    return new ResultLine(p[0], p[1], Integer.parseInt(p[2]), p[3], steps);
  }

  /**
   * Every complete line of a results file (empty when it does not exist yet); a line being written
   * by another process at that moment is left for the next read.
   */
  public static List<ResultLine> readAll(Path file) {
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      String text = Files.readString(file);
      String whole = text.substring(0, text.lastIndexOf('\n') + 1);
      return whole.lines().filter(l -> !l.isBlank()).map(ResultLine::parse).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
