package io.redrive.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.field.CronFieldName;
import com.cronutils.model.field.expression.Always;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Optional;

/**
 * A parsed cron expression and its due times in a zone.
 *
 * <p>Implementation notes: cron-utils parses the expression and finds the next matching
 * <em>local</em> date-time, always asked in UTC, where no clock changes; this class alone maps a
 * local time to instants in the schedule's zone, so the daylight-saving rules are ours (cron-utils
 * evaluated in the zone itself skips a daily time that falls into the spring-forward gap). A local
 * time in a gap maps to the gap's end; one in an overlap to its earlier offset, and also to its
 * later one when the hour field is {@code *}. The earlier mapping never decreases as the local time
 * grows and the later one is at most one transition's length after it, which bounds the search
 * below. Immutable and thread-safe.
 */
final class CronTimes {
  private static final CronParser FIVE = new CronParser(definition(false));
  private static final CronParser SIX = new CronParser(definition(true));

  /** Longer than any zone's clock change: offsets further away cannot matter to a search. */
  private static final Duration NEAR = Duration.ofHours(3);

  /** Local matches examined per search before giving up (a cron that never matches again). */
  private static final int MAX_STEPS = 10_000;

  private final ExecutionTime times;
  private final boolean everyHour;

  private CronTimes(Cron cron) {
    this.times = ExecutionTime.forCron(cron);
    this.everyHour = cron.retrieve(CronFieldName.HOUR).getExpression() instanceof Always;
  }

  /**
   * Checks and trims the expression.
   *
   * @throws IllegalArgumentException naming {@code cron} and the expression
   */
  static String normalize(String expression) {
    if (expression == null || expression.isBlank()) {
      throw new IllegalArgumentException("cron: expression is required");
    }
    String trimmed = String.join(" ", expression.trim().split("\\s+"));
    of(trimmed);
    return trimmed;
  }

  /**
   * @throws IllegalArgumentException naming {@code cron} and the expression when it does not parse
   */
  static CronTimes of(String expression) {
    int fields = expression.trim().split("\\s+").length;
    if (fields != 5 && fields != 6) {
      throw new IllegalArgumentException(
          "cron: expected 5 fields (or 6 with seconds first), was "
              + fields
              + " in \""
              + expression
              + "\"");
    }
    try {
      return new CronTimes((fields == 5 ? FIVE : SIX).parse(expression));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "cron: invalid expression \"" + expression + "\": " + e.getMessage(), e);
    }
  }

  /** The first due time strictly after {@code after} in {@code zone}; empty when none comes. */
  Optional<Instant> nextAfter(Instant after, ZoneId zone) {
    ZoneRules rules = zone.getRules();
    LocalDateTime cursor =
        LocalDateTime.ofInstant(after, zone)
            .truncatedTo(ChronoUnit.SECONDS)
            .minus(shiftNear(after, rules))
            .minusSeconds(1);
    Instant best = null;
    for (int i = 0; i < MAX_STEPS; i++) {
      Optional<ZonedDateTime> match = times.nextExecution(cursor.atZone(ZoneOffset.UTC));
      if (match.isEmpty()) {
        break;
      }
      cursor = match.get().toLocalDateTime();
      List<Instant> instants = instants(cursor, rules);
      if (best != null && instants.get(0).isAfter(best)) {
        break; // later local times map no earlier than this one's first instant
      }
      for (Instant candidate : instants) {
        if (candidate.isAfter(after) && (best == null || candidate.isBefore(best))) {
          best = candidate;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * How far the zone's offset moves within {@link #NEAR} of {@code at}: how much earlier than
   * {@code at}'s local time a local time may lie and still fire after {@code at}.
   */
  private static Duration shiftNear(Instant at, ZoneRules rules) {
    int here = rules.getOffset(at).getTotalSeconds();
    int before = rules.getOffset(at.minus(NEAR)).getTotalSeconds();
    int later = rules.getOffset(at.plus(NEAR)).getTotalSeconds();
    return Duration.ofSeconds(Math.max(Math.abs(here - before), Math.abs(later - here)));
  }

  /** The instants a matching local time fires at, earliest first. */
  private List<Instant> instants(LocalDateTime local, ZoneRules rules) {
    List<ZoneOffset> offsets = rules.getValidOffsets(local);
    if (offsets.isEmpty()) {
      ZoneOffsetTransition gap = rules.getTransition(local);
      return List.of(gap.getInstant());
    }
    Instant a = local.toInstant(offsets.get(0));
    if (offsets.size() == 1) {
      return List.of(a);
    }
    Instant b = local.toInstant(offsets.get(1));
    Instant first = a.isBefore(b) ? a : b;
    Instant second = a.isBefore(b) ? b : a;
    return everyHour ? List.of(first, second) : List.of(first);
  }

  private static CronDefinition definition(boolean seconds) {
    var builder = CronDefinitionBuilder.defineCron();
    if (seconds) {
      builder = builder.withSeconds().withValidRange(0, 59).and();
    }
    return builder
        .withMinutes()
        .withValidRange(0, 59)
        .and()
        .withHours()
        .withValidRange(0, 23)
        .and()
        .withDayOfMonth()
        .withValidRange(1, 31)
        .supportsL()
        .supportsW()
        .supportsQuestionMark()
        .and()
        .withMonth()
        .withValidRange(1, 12)
        .and()
        .withDayOfWeek()
        .withValidRange(0, 7)
        .withMondayDoWValue(1)
        .withIntMapping(7, 0)
        .supportsHash()
        .supportsL()
        .supportsQuestionMark()
        .and()
        .instance();
  }
}
