package io.redrive.server.ui;

import io.redrive.Redrive;
import io.redrive.objective.ObjectiveStatus;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The objectives card on the overview and the queue page (docs/dashboard.md, "Objectives"): each
 * objective the viewer may see, breached or ok, with its burn rates and budget.
 *
 * @param statuses the objectives shown, by name
 */
public record ObjectivesCard(List<ObjectiveStatus> statuses) {

  /** The objectives of the queues {@code visible} accepts (of {@code queue} alone when given). */
  static ObjectivesCard of(Redrive redrive, Predicate<String> visible, String queue) {
    return new ObjectivesCard(
        redrive.objectives().statuses().stream()
            .filter(s -> visible.test(s.objective().queue()))
            .filter(s -> queue == null || s.objective().queue().equals(queue))
            .toList());
  }

  /** How many of them are breached. */
  public long breached() {
    return statuses.stream().filter(ObjectiveStatus::breached).count();
  }

  /** A share as a percentage ("-" for none). */
  public static String percent(Double share) {
    return share == null ? "-" : String.format(Locale.ROOT, "%.2f %%", share * 100);
  }

  /** A burn rate. */
  public static String rate(double burn) {
    return String.format(Locale.ROOT, "%.2f", burn);
  }

  /** What the objective promises, in words. */
  public static String promise(ObjectiveStatus s) {
    var o = s.objective();
    String scope =
        o.queue()
            + (o.type() == null ? "" : " type " + o.type())
            + (o.stream() == null ? "" : " stream " + o.stream());
    return switch (o.kind()) {
          case LATENCY ->
              percent(o.target())
                  + " of "
                  + scope
                  + " start within "
                  + io.redrive.time.DurationText.format(o.bound());
          case AGE ->
              "oldest ready of "
                  + scope
                  + " younger than "
                  + io.redrive.time.DurationText.format(o.bound())
                  + " in "
                  + percent(o.target())
                  + " of minutes";
        }
        + " over "
        + io.redrive.time.DurationText.format(o.window());
  }
}
