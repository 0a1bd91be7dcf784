package io.redrive.server.ui;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Formatting helpers the dashboard's templates call. Every result is plain text: the templates
 * escape it like any other value.
 */
public final class Fmt {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private Fmt() {}

  /** An instant as {@code 2026-11-27 06:34:35.123 UTC}, or an em dash for null. */
  public static String time(Instant t) {
    return t == null ? "—" : TIME.format(t);
  }

  /** An instant as epoch milliseconds for {@code <time datetime>}-like attributes, or empty. */
  public static String iso(Instant t) {
    return t == null ? "" : t.toString();
  }

  /**
   * A duration the way an operator reads it: {@code 850ms}, {@code 42s}, {@code 3m 5s}, {@code 2h
   * 7m}, {@code 3d 4h}.
   */
  public static String age(Duration d) {
    if (d == null) {
      return "—";
    }
    long ms = Math.max(0, d.toMillis());
    if (ms < 1_000) {
      return ms + "ms";
    }
    long s = ms / 1_000;
    if (s < 60) {
      return s + "s";
    }
    long m = s / 60;
    if (m < 60) {
      return m + "m " + (s % 60) + "s";
    }
    long h = m / 60;
    if (h < 24) {
      return h + "h " + (m % 60) + "m";
    }
    return (h / 24) + "d " + (h % 24) + "h";
  }

  /** How long ago {@code t} was, relative to {@code now}: {@code 3m 5s ago}, or an em dash. */
  public static String ago(Instant t, Instant now) {
    return t == null ? "—" : age(Duration.between(t, now)) + " ago";
  }

  /**
   * Where {@code t} stands from {@code now}, either way: {@code in 3m 5s} ahead, {@code 3m 5s ago}
   * behind, or an em dash.
   */
  public static String when(Instant t, Instant now) {
    if (t == null) {
      return "—";
    }
    return t.isAfter(now) ? "in " + age(Duration.between(now, t)) : ago(t, now);
  }

  /** A count with thousands separators: {@code 100,000}. */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** One path segment, percent-encoded (a queue name or id in a link). */
  public static String seg(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A query parameter value, percent-encoded. */
  public static String q(String value) {
    return value == null ? "" : URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** An enum-like word in lower case with spaces: {@code LEASE_EXPIRED} → {@code lease expired}. */
  public static String words(Object value) {
    return value == null ? "—" : value.toString().toLowerCase(Locale.ROOT).replace('_', ' ');
  }

  /** A CSS class name for an enum-like value: {@code LEASE_EXPIRED} → {@code lease-expired}. */
  public static String css(Object value) {
    return value == null ? "none" : value.toString().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * A backoff as an operator reads it: {@code exponential from 1m ×2.0 up to 1h}, {@code fixed
   * 30s}, followed by {@code , jitter FULL} when its delays are spread.
   */
  public static String backoff(io.redrive.retry.Backoff backoff) {
    String delays = delays(backoff);
    return backoff == null || backoff.jitter() == io.redrive.retry.Jitter.NONE
        ? delays
        : delays + ", jitter " + backoff.jitter();
  }

  private static String delays(io.redrive.retry.Backoff backoff) {
    if (backoff instanceof io.redrive.retry.ExponentialBackoff e) {
      return "exponential from "
          + age(e.initial())
          + " ×"
          + e.multiplier()
          + " up to "
          + age(e.max());
    }
    if (backoff instanceof io.redrive.retry.FixedBackoff f) {
      return "fixed " + age(f.cooldown());
    }
    return or(backoff);
  }

  /** Where a queue's dead messages go: {@code kept in place}, {@code moved to orders.dlq}, … */
  public static String deadLetter(io.redrive.queue.DeadLetter d) {
    if (d == null) {
      return "—";
    }
    return switch (d.mode()) {
      case KEEP -> "kept in place";
      case MOVE -> "moved to " + d.queue();
      case DISCARD -> "discarded (logged)";
    };
  }

  /** Null as an em dash, anything else as its text. */
  public static String or(Object value) {
    return value == null ? "—" : value.toString();
  }
}
