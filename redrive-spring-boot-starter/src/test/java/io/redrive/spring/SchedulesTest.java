package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.schedule.CatchUp;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.test.TestClock;
import io.redrive.worker.HandlerContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Schedules declared from {@code redrive.schedules.*}: every property reaches the engine's {@link
 * Schedule}, a declared schedule fires on the engine's clock and its message reaches the handler,
 * an operator's pause survives a restart, {@code redrive.maintenance.schedules=false} fires
 * nothing, and bad values stop the application naming the schedule.
 */
class SchedulesTest {
  static final Instant START = Instant.parse("2031-05-01T00:00:00Z");

  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  private ApplicationContextRunner onTheTestClock(TestClock clock) {
    return runner().withBean(RedriveAutoConfiguration.REDRIVE_CLOCK, Clock.class, () -> clock);
  }

  /** The handler of the scheduled reports: records what it got. */
  static class Reports {
    final List<String> runs = new CopyOnWriteArrayList<>();

    @RedriveHandler(queue = "reports", type = "nightly")
    void nightly(HandlerContext context) {
      runs.add(
          context.payload()
              + " from "
              + context.headers().get(Schedule.HEADER_NAME)
              + " due "
              + context.headers().get(Schedule.HEADER_DUE));
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class ReportsConfig {
    @Bean
    Reports reports() {
      return new Reports();
    }
  }

  @Test
  void everyProperty_reachesTheDeclaredSchedule() {
    runner()
        .withPropertyValues(
            "redrive.queues.reports.max-attempts=3",
            "redrive.schedules.nightly.cron=0 3 * * *",
            "redrive.schedules.nightly.zone=Europe/Berlin",
            "redrive.schedules.nightly.queue=reports",
            "redrive.schedules.nightly.type=nightly",
            "redrive.schedules.nightly.payload={\"report\":\"daily\"}",
            "redrive.schedules.nightly.headers.tenant=acme",
            "redrive.schedules.nightly.stream=reports",
            "redrive.schedules.nightly.expire-after=1h",
            "redrive.schedules.nightly.jitter=10s",
            "redrive.schedules.nightly.catch-up=all:5",
            "redrive.schedules.nightly.paused=true",
            "redrive.schedules.cleanup.every=15m",
            "redrive.schedules.cleanup.workflow=clean-up",
            "redrive.schedules.cleanup.input={\"older-than\":\"30d\"}",
            "redrive.schedules.cleanup.version=2")
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              assertThat(redrive.schedules().find("nightly").map(ScheduleInfo::schedule))
                  .contains(
                      Schedule.builder(
                              "nightly",
                              ScheduleSpec.cron("0 3 * * *", "Europe/Berlin"),
                              new ScheduleTarget.Message(
                                  "reports",
                                  "nightly",
                                  "{\"report\":\"daily\"}",
                                  Map.of("tenant", "acme"),
                                  "reports",
                                  Duration.ofHours(1)))
                          .jitter(Duration.ofSeconds(10))
                          .catchUp(CatchUp.all(5))
                          .paused(true)
                          .build());
              assertThat(redrive.schedules().find("cleanup").map(ScheduleInfo::schedule))
                  .contains(
                      Schedule.builder(
                              "cleanup",
                              ScheduleSpec.every(Duration.ofMinutes(15)),
                              new ScheduleTarget.Workflow(
                                  "clean-up", "{\"older-than\":\"30d\"}", "2"))
                          .build());
            });
  }

  @Test
  void aDeclaredSchedule_firesOnTheRedriveClock_andItsHandlerGetsTheMessage() {
    TestClock clock = new TestClock(START);
    onTheTestClock(clock)
        .withUserConfiguration(ReportsConfig.class)
        .withPropertyValues(
            // "reports" is declared nowhere but by its handler: it exists before the schedule.
            "redrive.schedules.hourly.every=1h",
            "redrive.schedules.hourly.queue=reports",
            "redrive.schedules.hourly.type=nightly",
            "redrive.schedules.hourly.payload=\"sales\"")
        .run(
            context -> {
              Reports reports = context.getBean(Reports.class);
              clock.advance(Duration.ofHours(1));
              Instant due = START.plus(Duration.ofHours(1));
              await()
                  .atMost(Duration.ofSeconds(20))
                  .untilAsserted(
                      () ->
                          assertThat(reports.runs)
                              .containsExactly("\"sales\" from hourly due " + due));
              assertThat(context.getBean(Redrive.class).schedules().find("hourly").orElseThrow())
                  .extracting(ScheduleInfo::lastDueAt, ScheduleInfo::nextDueAt)
                  .containsExactly(due, due.plus(Duration.ofHours(1)));
            });
  }

  @Test
  void maintenanceSchedulesOff_declaresTheSchedule_butThisNodeFiresNothing() {
    TestClock clock = new TestClock(START);
    onTheTestClock(clock)
        .withPropertyValues(
            "redrive.maintenance.schedules=false",
            "redrive.queues.reports.max-attempts=3",
            "redrive.schedules.tick.every=1m",
            "redrive.schedules.tick.queue=reports",
            "redrive.schedules.tick.type=tick")
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              assertThat(redrive.schedules().find("tick")).isPresent();
              clock.advance(Duration.ofMinutes(5));
              // The scheduler, were it running, looks at least once a second.
              await()
                  .during(Duration.ofMillis(1500))
                  .atMost(Duration.ofSeconds(5))
                  .until(() -> redrive.stats("reports").total() == 0);
              assertThat(redrive.schedules().fireDue(10))
                  .as("still due: nobody fired it")
                  .hasSize(1);
            });
  }

  @Test
  void anExistingSchedule_takesTheNewSpec_andKeepsAnOperatorsPause() {
    String[] declared = {
      "redrive.queues.reports.max-attempts=3",
      "redrive.schedules.tick.queue=reports",
      "redrive.schedules.tick.type=tick"
    };
    runner()
        .withPropertyValues(declared)
        .withPropertyValues("redrive.schedules.tick.every=1m")
        .run(context -> context.getBean(Redrive.class).schedules().pause("tick"));
    runner()
        .withPropertyValues(declared)
        .withPropertyValues("redrive.schedules.tick.every=2m")
        .run(
            context -> {
              Schedule tick =
                  context.getBean(Redrive.class).schedules().find("tick").orElseThrow().schedule();
              assertThat(tick.spec()).isEqualTo(ScheduleSpec.every(Duration.ofMinutes(2)));
              assertThat(tick.paused()).as("the operator's pause survives").isTrue();
            });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "cron=not a cron               | cron: expected 5 fields (or 6 with seconds first), was 3",
        "cron=0 3 * * *,every=1m       | give either cron or every",
        "every=1m,zone=Europe/Berlin   | zone: is only for cron, was \"Europe/Berlin\"",
        "cron=0 3 * * *,zone=Mars/Base | zone: unknown time zone \"Mars/Base\"",
        "every=1m,queue=nowhere        | type: is required for a message target",
        "every=1m,type=t               | give either queue (and type) for a message or workflow",
        "every=1m,type=t,queue=nowhere | queue \"nowhere\" does not exist",
        "every=1m,workflow=w,type=t    | type: is only for a message target (queue), was \"t\"",
        "every=1m,type=t,queue=reports,input=x | input: is only for a workflow target, was \"x\"",
        "every=1m,type=t,queue=reports,catch-up=sometimes | catchUp: expected ONCE, SKIP or ALL",
        "every=1m,type=t,queue=reports,jitter=2d | jitter: must be between 0 and 1d",
        "every=500ms,type=t,queue=reports | interval: must be at least 1s",
      })
  void aBadValue_stopsTheApplication_namingTheSchedule(String properties, String message) {
    String[] values =
        java.util.Arrays.stream(properties.split(","))
            .map(p -> "redrive.schedules.bad." + p)
            .toArray(String[]::new);
    runner()
        .withPropertyValues("redrive.queues.reports.max-attempts=3")
        .withPropertyValues(values)
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("redrive.schedules.bad: ")
                    .hasMessageContaining(message));
  }
}
