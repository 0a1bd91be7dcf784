package io.redrive.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseRequest;
import io.redrive.maintenance.Maintenance;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.Store;
import io.redrive.testkit.TestDatabase;
import io.redrive.testkit.fault.InterceptedStore;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The maintenance service as an embedding application starts it (real clock, real thread): it
 * sweeps messages past their deadline on its own, survives a failed sweep, and checks its settings.
 * The sweep's semantics are pinned on both stores by the ExpiryContract.
 */
class MaintenanceTest {
  private TestDatabase db;
  private Redrive redrive;

  @BeforeEach
  void open() {
    db = SqliteFixture.INSTANCE.newDatabase();
    redrive = Redrive.builder(db.openStore()).build();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private String enqueueScheduledWithDeadline(Duration deadline) {
    return redrive
        .enqueue(
            NewMessage.builder("jobs", "t")
                .payload("{}")
                .delay(Duration.ofHours(1))
                .expireAfter(deadline)
                .build())
        .id();
  }

  @Test
  void start_sweepsMessagesPastTheirDeadline_andStopsOnClose() {
    redrive.createQueue("jobs", QueuePolicy.defaults());
    String id = enqueueScheduledWithDeadline(Duration.ofMillis(100));

    try (Maintenance maintenance =
        Maintenance.builder(redrive).interval(Duration.ofMillis(20)).batchSize(10).start()) {
      assertThat(maintenance.interval()).isEqualTo(Duration.ofMillis(20));
      await()
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> redrive.getMessage(id).state() == MessageState.DEAD);
    }

    assertThat(redrive.getMessage(id).deadReason()).isEqualTo(FailureReason.EXPIRED);
  }

  @Test
  void start_forgetsCompletionsOlderThanTheWindow() {
    Store store = db.openStore();
    Redrive shortMemory = Redrive.builder(store).completionWindow(Duration.ofMillis(50)).build();
    // sees a record as long as it exists: only the maintenance service can make it go
    Redrive observer = Redrive.builder(store).completionWindow(Duration.ofDays(7)).build();
    shortMemory.createQueue("jobs", QueuePolicy.defaults());
    shortMemory.enqueue(NewMessage.builder("jobs", "t").payload("{}").dedupeKey("k").build());
    String token = shortMemory.lease(LeaseRequest.of("jobs", "w", 1)).leased().get(0).token();
    shortMemory.complete(token);
    assertThat(observer.complete(token).repeated()).isTrue();

    try (Maintenance maintenance =
        Maintenance.builder(shortMemory).interval(Duration.ofMillis(20)).start()) {
      await()
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> !completedBefore(observer, token));
    }

    assertThat(
            shortMemory
                .enqueue(NewMessage.builder("jobs", "t").payload("{}").dedupeKey("k").build())
                .duplicate())
        .isFalse();
  }

  /** Whether completing again is still answered as a repeat (the record is still there). */
  private static boolean completedBefore(Redrive redrive, String token) {
    try {
      return redrive.complete(token).repeated();
    } catch (LeaseNotFoundException e) {
      return false;
    }
  }

  @Test
  void sweepThatFails_isRetriedAtTheNextInterval() {
    Store real = db.openStore();
    AtomicInteger sweeps = new AtomicInteger();
    Store failingTwice =
        InterceptedStore.of(
            real,
            method -> {
              if (method.equals("expireDue") && sweeps.incrementAndGet() <= 2) {
                throw new IllegalStateException("database unreachable (simulated)");
              }
            });
    Redrive flaky = Redrive.builder(failingTwice).build();
    flaky.createQueue("jobs", QueuePolicy.defaults());
    String id = enqueueScheduledWithDeadline(Duration.ofMillis(50));

    try (Maintenance maintenance =
        Maintenance.builder(flaky).interval(Duration.ofMillis(10)).start()) {
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> redrive.getMessage(id).state() == MessageState.DEAD);
    }

    assertThat(sweeps.get()).isGreaterThan(2);
  }

  @Test
  void builder_badSettings_refusedNamingThem() {
    assertThatThrownBy(() -> Maintenance.builder(redrive).interval(Duration.ofMillis(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval: must be between 10ms and 1h, was PT0.005S");
    assertThatThrownBy(() -> Maintenance.builder(redrive).interval(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("interval");
    assertThatThrownBy(() -> Maintenance.builder(redrive).batchSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("batchSize: must be between 1 and 10000, was 0");
    assertThatThrownBy(
            () -> Maintenance.builder(redrive).throughputRetention(Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("throughputRetention: must be between 1h and 30d, was PT5M");
    assertThatThrownBy(() -> Maintenance.builder(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redrive: is required");
  }

  @Test
  void start_recordsEachQueuesDepthForTheMinute() {
    redrive.createQueue("jobs", QueuePolicy.defaults());
    redrive.enqueue(NewMessage.builder("jobs", "t").payload("{}").build());

    try (Maintenance maintenance =
        Maintenance.builder(redrive)
            .interval(Duration.ofMillis(20))
            .throughputRetention(Duration.ofHours(2))
            .start()) {
      assertThat(maintenance.throughputRetention()).isEqualTo(Duration.ofHours(2));
      // Two points: the sweep may have taken the snapshot in the minute before this one.
      await()
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(10))
          .until(
              () ->
                  redrive.throughput("jobs", Duration.ofMinutes(2)).stream()
                      .anyMatch(p -> p.depth() != null && p.depth().ready() == 1));
    }
  }

  @Test
  void close_twice_isHarmless() {
    Maintenance maintenance = Maintenance.start(redrive);
    maintenance.close();
    maintenance.close();
    assertThat(maintenance.interval()).isEqualTo(Maintenance.DEFAULT_INTERVAL);
    assertThat(maintenance.throughputRetention())
        .isEqualTo(Maintenance.DEFAULT_THROUGHPUT_RETENTION)
        .isEqualTo(Redrive.MAX_THROUGHPUT_WINDOW);
  }
}
