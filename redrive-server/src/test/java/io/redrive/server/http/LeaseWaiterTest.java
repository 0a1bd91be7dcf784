package io.redrive.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.message.NewMessage;
import io.redrive.postgres.PostgresStore;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.ControllableClock;
import io.redrive.testkit.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The long-poll waiter is woken by the store's ready signal, not by its safety poll: every waiter
 * here has a safety poll of an hour, so only the signal (or the deadline's last attempt) can end
 * its wait in time.
 */
class LeaseWaiterTest {
  private static final Duration HOUR = Duration.ofHours(1);

  private final ControllableClock clock = ControllableClock.startingAtEpochOfTests();
  private Store store;
  private String schema;
  private LeaseWaiter waiter;

  private Redrive open(String kind) throws IOException {
    if (kind.equals("sqlite")) {
      store = SqliteStore.open(Files.createTempDirectory("lease-waiter").resolve("redrive.db"), 4);
    } else {
      schema = TestPostgres.createSchema("waiter");
      store = PostgresStore.builder(TestPostgres.adminUrl()).schema(schema).poolSize(4).build();
    }
    Redrive redrive = Redrive.builder(store).clock(clock).build();
    redrive.createQueue("q");
    waiter = new LeaseWaiter(redrive, 2, HOUR);
    return redrive;
  }

  @AfterEach
  void close() {
    if (waiter != null) {
      waiter.close();
    }
    if (store != null) {
      store.close();
    }
    if (schema != null) {
      TestPostgres.dropSchema(schema);
    }
  }

  private static LeaseResult empty() {
    return new LeaseResult(List.of(), List.of(), List.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void anEnqueueWakesAWaiter_withoutTheSafetyPoll(String kind) throws Exception {
    Redrive redrive = open(kind);
    CompletableFuture<LeaseResult> waiting =
        waiter.await(LeaseRequest.of("q", "w", 1), HOUR, empty());
    assertThat(waiting).isNotDone();

    String id = redrive.enqueue(NewMessage.builder("q", "t").payload("\"hi\"").build()).id();

    await().atMost(Duration.ofSeconds(30)).until(waiting::isDone);
    assertThat(waiting.get().leased()).extracting(m -> m.id()).containsExactly(id);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void theDeadlineMakesOneLastAttempt_forAMessageThatBecameVisibleWithoutASignal(String kind)
      throws Exception {
    Redrive redrive = open(kind);
    String id =
        redrive.enqueue(NewMessage.builder("q", "t").delay(Duration.ofMinutes(1)).build()).id();
    clock.advance(Duration.ofMinutes(2));

    // Subscribed after the enqueue's signal, safety poll an hour away: only the deadline leases.
    CompletableFuture<LeaseResult> waiting =
        waiter.await(LeaseRequest.of("q", "w", 1), Duration.ofMillis(200), empty());

    await().atMost(Duration.ofSeconds(30)).until(waiting::isDone);
    assertThat(waiting.get().leased()).extracting(m -> m.id()).containsExactly(id);
  }
}
