package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.error.QueueNotFoundException;
import io.redrive.error.ScheduleNotFoundException;
import io.redrive.message.Message;
import io.redrive.schedule.CatchUp;
import io.redrive.schedule.Firing;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleDeclaration;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Recurring schedules (docs/engine.md, "Recurring schedules"): each due time produces its target
 * once, also with several nodes firing at once; catch-up after an outage; both daylight-saving
 * transitions; pause, resume, trigger, delete; a workflow target starts one instance per due time.
 */
public abstract class ScheduleContract extends ComplianceTestBase {
  private static final String NAME = "nightly-report";

  private Schedule.Builder everyMinute() {
    return Schedule.builder(
        NAME,
        ScheduleSpec.every(Duration.ofMinutes(1)),
        ScheduleTarget.message(QUEUE, TYPE, PAYLOAD));
  }

  private List<Firing> fire() {
    return redrive.schedules().fireDue(100);
  }

  private List<String> dueHeaders() {
    return messagesIn(QUEUE).stream()
        .map(m -> m.headers().get(Schedule.HEADER_DUE))
        .sorted()
        .toList();
  }

  private ScheduleInfo info() {
    return redrive.schedules().find(NAME).orElseThrow();
  }

  @Test
  void interval_firesOncePerDueTime_withLinkHeadersAndDedupeKey() {
    createQueue(QUEUE);
    Instant created = now();
    ScheduleInfo saved = redrive.schedules().save(everyMinute().build());
    assertThat(saved.nextDueAt()).isEqualTo(created.plus(Duration.ofMinutes(1)));
    assertThat(fire()).isEmpty();

    advance(Duration.ofMinutes(1));
    List<Firing> fired = fire();
    assertThat(fire()).as("a second firing at the same time").isEmpty();

    Instant due = created.plus(Duration.ofMinutes(1));
    assertThat(fired).hasSize(1);
    assertThat(fired.get(0).dueAt()).isEqualTo(due);
    Message m = message(fired.get(0).producedId());
    assertThat(m.headers())
        .containsEntry(Schedule.HEADER_NAME, NAME)
        .containsEntry(Schedule.HEADER_DUE, due.toString());
    assertThat(m.dedupeKey()).isEqualTo("schedule:" + NAME + ":" + due.toEpochMilli());
    assertThat(info().lastDueAt()).isEqualTo(due);
    assertThat(info().lastFiredAt()).isEqualTo(now());
    assertThat(info().nextDueAt()).isEqualTo(due.plus(Duration.ofMinutes(1)));

    advance(Duration.ofSeconds(61));
    assertThat(fire()).hasSize(1);
    assertThat(messagesIn(QUEUE)).hasSize(2);
  }

  @Test
  @Timeout(60)
  void threeNodesFiringAtOnce_neverProduceADueTimeTwice() throws Exception {
    createQueue(QUEUE);
    redrive.schedules().save(everyMinute().build());
    List<Redrive> nodes = new ArrayList<>(List.of(redrive));
    for (int i = 1; i < 3; i++) {
      nodes.add(Redrive.builder(db.openStore()).clock(clock).build());
    }
    ConcurrentLinkedQueue<Firing> fired = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    int rounds = 15;
    CyclicBarrier barrier = new CyclicBarrier(nodes.size(), () -> advance(Duration.ofMinutes(1)));
    List<Thread> threads = new ArrayList<>();
    for (Redrive node : nodes) {
      Thread t =
          new Thread(
              () -> {
                try {
                  for (int r = 0; r < rounds; r++) {
                    barrier.await();
                    for (int k = 0; k < 3; k++) {
                      fired.addAll(node.schedules().fireDue(10));
                    }
                  }
                } catch (Throwable e) {
                  errors.add(e);
                }
              });
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join(50_000);
    }
    assertThat(errors).isEmpty();
    assertThat(fired).hasSize(rounds);
    assertThat(dueHeaders()).hasSize(rounds).doesNotHaveDuplicates();
  }

  @Test
  void catchUp_afterALongOutage_oncefiresTheLatest_allFiresTheLatestN_skipFiresNone() {
    createQueue(QUEUE);
    ScheduleSpec hourly = ScheduleSpec.cron("0 * * * *");
    var target = ScheduleTarget.message(QUEUE, TYPE, PAYLOAD);
    redrive.schedules().save(Schedule.builder("once", hourly, target).build());
    redrive
        .schedules()
        .save(Schedule.builder("all", hourly, target).catchUp(CatchUp.all(3)).build());
    redrive
        .schedules()
        .save(Schedule.builder("skip", hourly, target).catchUp(CatchUp.SKIP).build());

    advance(Duration.ofHours(10).plusMinutes(30)); // due times 01:00 .. 10:00 missed
    fire();

    Map<String, List<String>> byName = new java.util.TreeMap<>();
    for (Message m : messagesIn(QUEUE)) {
      byName
          .computeIfAbsent(m.headers().get(Schedule.HEADER_NAME), k -> new ArrayList<>())
          .add(m.headers().get(Schedule.HEADER_DUE));
    }
    byName.values().forEach(java.util.Collections::sort);
    assertThat(byName)
        .containsOnlyKeys("once", "all")
        .containsEntry("once", List.of("2030-01-01T10:00:00Z"))
        .containsEntry(
            "all", List.of("2030-01-01T08:00:00Z", "2030-01-01T09:00:00Z", "2030-01-01T10:00:00Z"));
    assertThat(redrive.schedules().find("once").orElseThrow().skipped()).isEqualTo(9);
    assertThat(redrive.schedules().find("all").orElseThrow().skipped()).isEqualTo(7);
    ScheduleInfo skip = redrive.schedules().find("skip").orElseThrow();
    assertThat(skip.skipped()).isEqualTo(10);
    assertThat(skip.nextDueAt()).isEqualTo(Instant.parse("2030-01-01T11:00:00Z"));
  }

  @Test
  void cronInBerlin_atBothTransitions_firesOnceAtTheDecidedInstants() {
    createQueue(QUEUE);
    // 2030: Europe/Berlin springs forward on 03-31 (02:00 CET -> 03:00 CEST, 01:00Z) and falls back
    // on 10-27 (03:00 CEST -> 02:00 CET, 01:00Z).
    Schedule daily =
        Schedule.builder(
                NAME,
                ScheduleSpec.cron("30 2 * * *", "Europe/Berlin"),
                ScheduleTarget.message(QUEUE, TYPE, PAYLOAD))
            .catchUp(CatchUp.all(10))
            .build();
    advance(Duration.between(now(), Instant.parse("2030-03-30T12:00:00Z")));
    redrive.schedules().save(daily);
    advance(Duration.ofHours(12)); // 2030-03-31T00:00Z
    assertThat(fire()).isEmpty();
    advance(Duration.ofHours(1)); // 01:00Z, the gap's end
    assertThat(fire())
        .extracting(Firing::dueAt)
        .containsExactly(Instant.parse("2030-03-31T01:00:00Z"));

    advance(Duration.between(now(), Instant.parse("2030-10-26T12:00:00Z")));
    redrive.schedules().save(daily.withPaused(true));
    redrive.schedules().resume(NAME);
    advance(Duration.ofHours(12).plusMinutes(30)); // 2030-10-27T00:30Z, 02:30 CEST
    advance(Duration.ofHours(2)); // 02:30Z: past the second 02:30 (CET, 01:30Z) too
    assertThat(fire())
        .extracting(Firing::dueAt)
        .containsExactly(Instant.parse("2030-10-27T00:30:00Z"));
  }

  @Test
  void jitter_delaysWithinBounds_andTheDueTimeStillDedupes() {
    createQueue(QUEUE);
    Duration jitter = Duration.ofSeconds(30);
    redrive.schedules().save(everyMinute().jitter(jitter).build());
    for (int i = 0; i < 5; i++) {
      advance(Duration.ofMinutes(1));
      fire();
    }
    List<Message> produced = messagesIn(QUEUE);
    assertThat(produced).hasSize(5);
    for (Message m : produced) {
      Instant due = Instant.parse(m.headers().get(Schedule.HEADER_DUE));
      Duration delay = Duration.between(m.enqueuedAt(), m.visibleAt());
      assertThat(delay).isBetween(Duration.ZERO, jitter);
      assertThat(m.dedupeKey()).endsWith(":" + due.toEpochMilli());
    }
  }

  @Test
  void pause_firesNothing_resume_goesOnFromTheNextDueTimeAfterNow() {
    createQueue(QUEUE);
    redrive.schedules().save(everyMinute().catchUp(CatchUp.all(100)).build());
    assertThat(redrive.schedules().pause(NAME).schedule().paused()).isTrue();
    advance(Duration.ofMinutes(5).plusSeconds(10));
    assertThat(fire()).isEmpty();
    ScheduleInfo resumed = redrive.schedules().resume(NAME);
    assertThat(resumed.nextDueAt()).isAfter(now());
    assertThat(fire()).as("paused-over due times never fire").isEmpty();
    advance(Duration.ofMinutes(1));
    assertThat(fire()).hasSize(1);
  }

  @Test
  void triggerNow_producesOnceByTheTriggerTime_andLeavesTheDueTimes() {
    createQueue(QUEUE);
    ScheduleInfo before = redrive.schedules().save(everyMinute().build());
    Firing first = redrive.schedules().triggerNow(NAME);
    Firing again = redrive.schedules().triggerNow(NAME);
    assertThat(first.created()).isTrue();
    assertThat(first.dueAt()).isEqualTo(now());
    assertThat(again.created()).as("same trigger time, same dedupe key").isFalse();
    assertThat(again.producedId()).isEqualTo(first.producedId());
    assertThat(info().nextDueAt()).isEqualTo(before.nextDueAt());
    assertThatThrownBy(() -> redrive.schedules().triggerNow("nope"))
        .isInstanceOf(ScheduleNotFoundException.class);
  }

  @Test
  void delete_removesTheSchedule_andWhatItProducedStays() {
    createQueue(QUEUE);
    redrive.schedules().save(everyMinute().build());
    advance(Duration.ofMinutes(1));
    fire();
    assertThat(redrive.schedules().delete(NAME)).isTrue();
    assertThat(redrive.schedules().delete(NAME)).isFalse();
    assertThat(redrive.schedules().find(NAME)).isEmpty();
    advance(Duration.ofMinutes(1));
    assertThat(fire()).isEmpty();
    assertThat(messagesIn(QUEUE)).hasSize(1);
  }

  @Test
  void invalidInput_changesNothing() {
    createQueue(QUEUE);
    assertThatThrownBy(
            () ->
                redrive
                    .schedules()
                    .save(
                        Schedule.builder(
                                NAME,
                                ScheduleSpec.every(Duration.ofMinutes(1)),
                                ScheduleTarget.message("missing", TYPE, PAYLOAD))
                            .build()))
        .isInstanceOf(QueueNotFoundException.class);
    assertThatThrownBy(
            () ->
                redrive
                    .schedules()
                    .save(
                        Schedule.builder(
                                NAME,
                                ScheduleSpec.every(Duration.ofMinutes(1)),
                                ScheduleTarget.message(QUEUE, TYPE, "\u0000"))
                            .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload");
    assertThatThrownBy(() -> everyMinute().jitter(Duration.ofSeconds(-1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("jitter: ");
    assertThatThrownBy(
            () ->
                redrive
                    .schedules()
                    .save(
                        Schedule.builder(
                                NAME,
                                ScheduleSpec.cron("0 0 30 2 *"),
                                ScheduleTarget.message(QUEUE, TYPE, PAYLOAD))
                            .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("spec: ");
    assertThat(redrive.schedules().list()).isEmpty();
  }

  @Test
  void declare_createsUpdatesOrLeavesAlone_andKeepsAnOperatorsPause() {
    createQueue(QUEUE);
    Schedule declared = everyMinute().build();
    assertThat(redrive.schedules().declare(declared).outcome())
        .isEqualTo(ScheduleDeclaration.Outcome.CREATED);
    assertThat(redrive.schedules().declare(declared).outcome())
        .isEqualTo(ScheduleDeclaration.Outcome.UNCHANGED);
    redrive.schedules().pause(NAME);
    assertThat(redrive.schedules().declare(declared).outcome())
        .isEqualTo(ScheduleDeclaration.Outcome.UNCHANGED);
    ScheduleDeclaration changed =
        redrive.schedules().declare(everyMinute().jitter(Duration.ofSeconds(5)).build());
    assertThat(changed.outcome()).isEqualTo(ScheduleDeclaration.Outcome.UPDATED);
    assertThat(changed.schedule().schedule().jitter()).isEqualTo(Duration.ofSeconds(5));
    assertThat(changed.schedule().schedule().paused()).isTrue();
  }

  @Test
  void workflowTarget_startsOneInstancePerDueTime() {
    Schedule s =
        Schedule.builder(
                NAME,
                ScheduleSpec.every(Duration.ofMinutes(1)),
                ScheduleTarget.workflow("billing-run", "{\"month\":1}"))
            .build();
    Instant due = redrive.schedules().save(s).nextDueAt();
    advance(Duration.ofMinutes(1));
    List<Firing> fired = fire();
    assertThat(fired).hasSize(1);
    assertThat(fired.get(0).producedId()).isEqualTo(NAME + "-" + due.toEpochMilli());
    WorkflowStore workflows = (WorkflowStore) store;
    assertThat(workflows.findInstance(fired.get(0).producedId())).isPresent();

    Firing same = redrive.schedules().triggerNow(NAME);
    assertThat(same.created()).as("a trigger at the due time is that due time").isFalse();
    advance(Duration.ofSeconds(1));
    Firing first = redrive.schedules().triggerNow(NAME);
    Firing second = redrive.schedules().triggerNow(NAME);
    assertThat(first.created()).isTrue();
    assertThat(second.created()).isFalse();
    assertThat(second.producedId()).isEqualTo(first.producedId());
  }
}
