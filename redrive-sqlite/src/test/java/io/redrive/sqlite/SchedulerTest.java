package io.redrive.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.maintenance.Maintenance;
import io.redrive.maintenance.Scheduler;
import io.redrive.message.MessageQuery;
import io.redrive.queue.QueuePolicy;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.testkit.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler as an embedding application starts it (real clock, real thread): it fires a
 * one-second schedule on its own, also when started through {@link Maintenance}, and checks its
 * settings. Firing semantics are pinned on both stores by the ScheduleContract.
 */
class SchedulerTest {
  private TestDatabase db;
  private Redrive redrive;

  @BeforeEach
  void open() {
    db = SqliteFixture.INSTANCE.newDatabase();
    redrive = Redrive.builder(db.openStore()).build();
    redrive.createQueue("jobs", QueuePolicy.defaults());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private long produced() {
    return redrive.listMessages(MessageQuery.all("jobs")).messages().size();
  }

  private void saveEverySecond() {
    redrive
        .schedules()
        .save(
            Schedule.builder(
                    "tick",
                    ScheduleSpec.every(Duration.ofSeconds(1)),
                    ScheduleTarget.message("jobs", "tick", "{}"))
                .build());
  }

  @Test
  void start_firesASecondlySchedule_andStopsOnClose() {
    try (Scheduler scheduler = Scheduler.start(redrive)) {
      saveEverySecond();
      await().atMost(Duration.ofSeconds(10)).until(() -> produced() >= 2);
    }
    long after = produced();
    assertThat(redrive.schedules().find("tick").orElseThrow().lastFiredAt()).isNotNull();
    assertThat(after).isGreaterThanOrEqualTo(2);
  }

  @Test
  void maintenance_runsTheSchedulerToo() {
    saveEverySecond();
    try (Maintenance maintenance = Maintenance.start(redrive)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> produced() >= 1);
    }
  }

  @Test
  void start_badSettings_refusedNamingThem() {
    assertThatThrownBy(() -> Scheduler.start(redrive, Duration.ofMillis(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxWait: must be between 10ms and 1h, was PT0.001S");
    assertThatThrownBy(() -> Scheduler.start(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redrive: is required");
  }
}
