package io.redrive.server.ui;

import io.redrive.Redrive;
import io.redrive.queue.Queue;
import io.redrive.retry.Backoff;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.time.DurationText;
import io.redrive.whatif.RetryCandidate;
import io.redrive.whatif.WhatIfReport;
import java.util.Locale;

/**
 * The queue's what-if page (docs/dashboard.md, "What-if for retry policies"): a read-only form
 * (GET, so nothing changes and no CSRF token is needed) whose answer is the report of {@code
 * Redrive.whatIf} for the candidate policy. The form starts from the queue's own policy.
 */
final class WhatIfPage {
  private final Redrive redrive;
  private final Dashboard dashboard;

  WhatIfPage(Redrive redrive, Dashboard dashboard) {
    this.redrive = redrive;
    this.dashboard = dashboard;
  }

  void register(Dashboard.Routes routes) {
    routes.add("GET", Dashboard.ROOT + "/queues/{queue}/what-if", this::show);
  }

  private void show(UiRequest r) {
    String name = r.path("queue");
    if (!r.principal().mayAccess(name)) {
      throw new io.redrive.error.QueueNotFoundException(name);
    }
    Queue q = redrive.getQueue(name);
    String since = or(r.query("since"), "7d");
    String attempts = r.query("maxAttempts");
    String backoff = or(r.query("backoff"), spec(q.policy().backoff()));
    String crashes = or(r.query("maxCrashes"), String.valueOf(q.policy().maxCrashes()));
    WhatIfReport report = null;
    if (attempts != null && !attempts.isBlank()) {
      report =
          redrive.whatIf(
              name,
              DurationText.parse("since", since),
              new RetryCandidate(
                  integer("maxAttempts", attempts),
                  backoff(backoff),
                  integer("maxCrashes", crashes)));
    }
    dashboard.page(
        r,
        "whatif.jte",
        "What-if for " + name,
        new WhatIfView(
            q,
            since,
            attempts == null ? String.valueOf(q.policy().maxAttempts()) : attempts,
            backoff,
            crashes,
            report));
  }

  private static String or(String value, String otherwise) {
    return value == null || value.isBlank() ? otherwise : value.trim();
  }

  private static int integer(String field, String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + ": expected a whole number, was \"" + text + "\"");
    }
  }

  /** The form's text of a backoff. */
  static String spec(Backoff b) {
    if (b instanceof FixedBackoff f) {
      return "fixed:" + DurationText.format(f.cooldown());
    }
    ExponentialBackoff e = (ExponentialBackoff) b;
    return "exponential:"
        + DurationText.format(e.initial())
        + ":"
        + BigDecimalText.of(e.multiplier())
        + ":"
        + DurationText.format(e.max());
  }

  /** {@code exponential:INITIAL:MULTIPLIER:MAX} or {@code fixed:COOLDOWN}. */
  static Backoff backoff(String text) {
    String[] parts = text.trim().split(":");
    String kind = parts[0].toLowerCase(Locale.ROOT);
    if (kind.equals("fixed") && parts.length == 2) {
      return new FixedBackoff(DurationText.parse("backoff", parts[1]));
    }
    if (kind.equals("exponential") && parts.length == 4) {
      double multiplier;
      try {
        multiplier = Double.parseDouble(parts[2]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "backoff: multiplier \"" + parts[2] + "\" is not a number");
      }
      return new ExponentialBackoff(
          DurationText.parse("backoff", parts[1]),
          multiplier,
          DurationText.parse("backoff", parts[3]));
    }
    throw new IllegalArgumentException(
        "backoff: expected exponential:INITIAL:MULTIPLIER:MAX or fixed:COOLDOWN, was \""
            + text
            + "\"");
  }

  /** A multiplier without a needless ".0". */
  private static final class BigDecimalText {
    static String of(double d) {
      return new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
    }
  }
}
