package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.error.LeaseLostException;
import io.redrive.error.NotFoundException;
import io.redrive.error.RedriveException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.testkit.ControllableClock;
import io.redrive.testkit.TestPostgres;
import io.redrive.testkit.fault.CommitCuttingDataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Enqueues, leases, completes and fails through the engine while a share of COMMITs lose their
 * answer after taking effect, retrying by the rule docs/api.md gives for {@code COMMIT_UNKNOWN}: no
 * committed call is answered as "nothing happened", and no message is duplicated or lost.
 */
class PostgresCommitCutTest {
  private static final int BATCHES = 20;
  private static final int PER_BATCH = 5;
  private static final String QUEUE = "orders";

  private final Map<String, Integer> answers = new TreeMap<>();
  private int committedButAnsweredAsFailure;
  private int settledButRefusedOnRetry;
  private int completeRetriesNotFound;
  private String database;
  private CommitCuttingDataSource cutting;
  private PostgresStore store;
  private ControllableClock clock;
  private Redrive redrive;

  @BeforeEach
  void start() {
    database = TestPostgres.createDatabase("commitcut");
    PGSimpleDataSource base = new PGSimpleDataSource();
    base.setUrl(TestPostgres.urlForDatabase(database));
    cutting = new CommitCuttingDataSource(base, 20261126L);
    store = PostgresStore.builder(cutting).build();
    clock = ControllableClock.startingAtEpochOfTests();
    redrive = Redrive.builder(store).clock(clock).build();
    redrive.createQueue(QUEUE, QueuePolicy.defaults().withMaxAttempts(1000));
  }

  @AfterEach
  void stop() {
    redrive.close();
    TestPostgres.dropDatabase(database);
  }

  @Test
  void cutCommits_retriedByTheRule_answerHonestlyAndNeitherDuplicateNorLose() {
    cutting.cutShare(0.3);

    for (int b = 0; b < BATCHES; b++) {
      List<NewMessage> batch = new ArrayList<>();
      for (int i = 0; i < PER_BATCH; i++) {
        String key = "m-" + (b * PER_BATCH + i);
        batch.add(NewMessage.builder(QUEUE, "ship").payload(key).dedupeKey(key).build());
      }
      retrying(
          "enqueue",
          () -> redrive.enqueueBatch(batch)); // same dedupe keys: a retry finds the first
    }
    cutting.cutShare(0);
    QueueStats afterEnqueue = redrive.stats(QUEUE);
    long enqueued = afterEnqueue.total();
    cutting.cutShare(0.3);

    Map<String, Integer> completions = new TreeMap<>();
    for (int round = 0; round < 1000; round++) {
      LeaseResult r =
          retrying("lease", () -> redrive.lease(LeaseRequest.of(QUEUE, "w", PER_BATCH)));
      if (r.leased().isEmpty()) {
        cutting.cutShare(0);
        boolean empty = redrive.stats(QUEUE).total() == 0;
        cutting.cutShare(0.3);
        if (empty) {
          break;
        }
        clock.advance(Duration.ofHours(1)); // lost leases run out; failed ones back off
        continue;
      }
      for (LeasedMessage m : r.leased()) {
        if (m.attempt() == 1 && m.payload().hashCode() % 2 == 0) {
          settle(
              "fail",
              () ->
                  redrive.fail(
                      FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "try later")));
        } else {
          settle("complete", () -> redrive.complete(m.token()));
          completions.merge(m.payload(), 1, Integer::sum);
        }
      }
    }
    cutting.cutShare(0);

    long duplicates = Math.max(0, enqueued - BATCHES * PER_BATCH);
    long lost = BATCHES * PER_BATCH - completions.size() + redrive.stats(QUEUE).total();
    System.out.printf(
        "commit cut: commits=%d cut=%d answers=%s committedButAnsweredAsFailure=%d"
            + " settledButRefusedOnRetry=%d completeRetriesNotFound=%d duplicates=%d lost=%d"
            + " completedTwice=%d%n",
        cutting.commits(),
        cutting.cuts(),
        answers,
        committedButAnsweredAsFailure,
        settledButRefusedOnRetry,
        completeRetriesNotFound,
        duplicates,
        lost,
        completions.values().stream().filter(n -> n > 1).count());

    assertThat(cutting.cuts()).as("the test must cut commits").isGreaterThan(20);
    assertThat(answers.keySet()).anyMatch(k -> k.endsWith(" COMMIT_UNKNOWN"));
    assertThat(committedButAnsweredAsFailure).isZero();
    assertThat(settledButRefusedOnRetry).isZero();
    assertThat(completeRetriesNotFound).isZero();
    assertThat(answers).containsKey("complete OK repeated");
    assertThat(enqueued).as("messages after enqueueing").isEqualTo(BATCHES * PER_BATCH);
    assertThat(completions)
        .hasSize(BATCHES * PER_BATCH)
        .allSatisfy((k, n) -> assertThat(n).isOne());
    assertThat(redrive.stats(QUEUE).total()).isZero();
  }

  /** Retries while the answer is COMMIT_UNKNOWN or a transient store failure. */
  private <T> T retrying(String op, Supplier<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return answered(op, call);
      } catch (RedriveException e) {
        if (attempt >= 20 || !retryable(e.code())) {
          throw e;
        }
      }
    }
  }

  /**
   * A settle retried by the rule: after COMMIT_UNKNOWN the same token is settled again, and "not
   * found" or LEASE_LOST then means the first call had settled it.
   */
  private void settle(String op, Supplier<?> call) {
    boolean unknown = false;
    for (int attempt = 1; ; attempt++) {
      try {
        answered(op, call);
        return;
      } catch (NotFoundException | LeaseLostException e) {
        if (op.equals("complete")) {
          completeRetriesNotFound++; // the completion window should have answered "completed"
        }
        if (!unknown) {
          settledButRefusedOnRetry++; // the first answer claimed a failure, yet it had settled
        }
        return;
      } catch (RedriveException e) {
        unknown |= e.code().equals("COMMIT_UNKNOWN");
        if (attempt >= 20 || !retryable(e.code())) {
          throw e;
        }
      }
    }
  }

  private static boolean retryable(String code) {
    return code.equals("COMMIT_UNKNOWN") || code.equals("STORE_ERROR");
  }

  /** Runs {@code call}, counting its answer and any committed call answered as a plain failure. */
  private <T> T answered(String op, Supplier<T> call) {
    int cutsBefore = cutting.cuts();
    try {
      T result = call.get();
      boolean repeated = result instanceof SettleResult s && s.repeated();
      answers.merge(op + (repeated ? " OK repeated" : " OK"), 1, Integer::sum);
      return result;
    } catch (RedriveException e) {
      answers.merge(op + " " + e.code(), 1, Integer::sum);
      if (cutting.cuts() > cutsBefore && !e.code().equals("COMMIT_UNKNOWN")) {
        committedButAnsweredAsFailure++;
      }
      throw e;
    }
  }
}
