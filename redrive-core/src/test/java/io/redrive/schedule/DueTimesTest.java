package io.redrive.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DueTimesTest {
  private static final Instant ANCHOR = Instant.parse("2026-01-01T00:00:00Z");
  private static final ScheduleSpec MINUTE = ScheduleSpec.every(Duration.ofMinutes(1));
  private static final ScheduleSpec HOURLY_CRON = ScheduleSpec.cron("0 * * * *");

  private static Instant at(String text) {
    return Instant.parse(text);
  }

  @Test
  void onTime_firesTheDueTime_skipsNothing() {
    for (CatchUp c : List.of(CatchUp.ONCE, CatchUp.SKIP, CatchUp.all(5))) {
      DueTimes.Plan plan =
          DueTimes.plan(
              MINUTE, ANCHOR, c, at("2026-01-01T00:01:00Z"), at("2026-01-01T00:01:00.4Z"));
      assertThat(plan.fire()).containsExactly(at("2026-01-01T00:01:00Z"));
      assertThat(plan.skipped()).isZero();
      assertThat(plan.nextDueAt()).isEqualTo(at("2026-01-01T00:02:00Z"));
    }
  }

  @Test
  void afterAnOutage_onceFiresTheLatest_allFiresTheLatestN_skipFiresNone() {
    Instant next = at("2026-01-01T01:00:00Z");
    Instant now = at("2026-01-01T10:30:00Z"); // 10 missed hourly due times (01:00..10:00)
    DueTimes.Plan once = DueTimes.plan(HOURLY_CRON, ANCHOR, CatchUp.ONCE, next, now);
    assertThat(once.fire()).containsExactly(at("2026-01-01T10:00:00Z"));
    assertThat(once.skipped()).isEqualTo(9);
    assertThat(once.nextDueAt()).isEqualTo(at("2026-01-01T11:00:00Z"));

    DueTimes.Plan all = DueTimes.plan(HOURLY_CRON, ANCHOR, CatchUp.all(3), next, now);
    assertThat(all.fire())
        .containsExactly(
            at("2026-01-01T08:00:00Z"), at("2026-01-01T09:00:00Z"), at("2026-01-01T10:00:00Z"));
    assertThat(all.skipped()).isEqualTo(7);

    DueTimes.Plan many = DueTimes.plan(HOURLY_CRON, ANCHOR, CatchUp.all(50), next, now);
    assertThat(many.fire()).hasSize(10).startsWith(next);
    assertThat(many.skipped()).isZero();

    DueTimes.Plan skip = DueTimes.plan(HOURLY_CRON, ANCHOR, CatchUp.SKIP, next, now);
    assertThat(skip.fire()).isEmpty();
    assertThat(skip.skipped()).isEqualTo(10);
    assertThat(skip.nextDueAt()).isEqualTo(at("2026-01-01T11:00:00Z"));
  }

  @Test
  void longOutageOfAFineSchedule_findsTheLatestWithoutWalkingEveryDueTime() {
    ScheduleSpec second = ScheduleSpec.cron("* * * * * *");
    Instant next = at("2026-01-01T00:00:01Z");
    Instant now = at("2026-01-08T00:00:00.5Z"); // a week of seconds
    DueTimes.Plan once = DueTimes.plan(second, ANCHOR, CatchUp.ONCE, next, now);
    assertThat(once.fire()).containsExactly(at("2026-01-08T00:00:00Z"));
    assertThat(once.skipped()).isEqualTo(DueTimes.MAX_COUNTED);
  }
}
