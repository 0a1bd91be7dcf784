package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.error.CommitUnknownException;
import io.redrive.error.LeaseLostException;
import io.redrive.error.NotFoundException;
import io.redrive.error.RedriveException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.store.LeaseParams;
import io.redrive.store.Store;
import io.redrive.testkit.ControllableClock;
import io.redrive.testkit.TestPostgres;
import io.redrive.testkit.fault.CommitCuttingDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
 * committed call is answered as "nothing happened", and no message is duplicated or lost. A lease
 * whose answer was cut had taken messages nobody can settle: each comes back at once with a
 * LEASE_UNDELIVERED history entry and its attempt refunded (or, had the give-back failed, with
 * LEASE_EXPIRED after its lease timeout).
 */
class PostgresCommitCutTest {
  private static final int BATCHES = 20;
  private static final int PER_BATCH = 5;
  private static final String QUEUE = "orders";

  private final Map<String, Integer> answers = new TreeMap<>();
  private int committedButAnsweredAsFailure;
  private int settledButRefusedOnRetry;
  private int completeRetriesNotFound;
  private int giveBacksCut;
  private int attemptsMiscounted;

  /** Per message: how often a lease whose answer was cut took it (read before the give-back). */
  private final Map<String, Integer> takenByCutLeases = new HashMap<>();

  /** Per message: LEASE_UNDELIVERED and LEASE_EXPIRED entries seen in its history. */
  private final Map<String, Integer> undelivered = new HashMap<>();

  private final Map<String, Integer> expired = new HashMap<>();
  private final Map<String, Integer> failures = new HashMap<>();
  private PGSimpleDataSource base;
  private String database;
  private CommitCuttingDataSource cutting;
  private PostgresStore store;
  private ControllableClock clock;
  private Redrive redrive;

  @BeforeEach
  void start() {
    database = TestPostgres.createDatabase("commitcut");
    base = new PGSimpleDataSource();
    base.setUrl(TestPostgres.urlForDatabase(database));
    cutting = new CommitCuttingDataSource(base, 20261126L);
    store = PostgresStore.builder(cutting).build();
    clock = ControllableClock.startingAtEpochOfTests();
    redrive = Redrive.builder(watchingLostLeases(store)).clock(clock).build();
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
        checkHistory(m);
        if (m.attempt() == 1 && m.payload().hashCode() % 2 == 0) {
          settle(
              "fail",
              () ->
                  redrive.fail(
                      FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "try later")));
          failures.merge(m.id(), 1, Integer::sum);
        } else {
          settle("complete", () -> redrive.complete(m.token()));
          completions.merge(m.payload(), 1, Integer::sum);
        }
      }
    }
    cutting.cutShare(0);

    long duplicates = Math.max(0, enqueued - BATCHES * PER_BATCH);
    long lost = BATCHES * PER_BATCH - completions.size() + redrive.stats(QUEUE).total();
    int stillToGiveBack = redrive.releaseUndelivered();
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
    System.out.printf(
        "lost leases: leasesCut=%d messagesTaken=%d (distinct %d) leaseUndeliveredEntries=%d"
            + " leaseExpiredEntries=%d giveBacksCut=%d givenBackLater=%d attemptsMiscounted=%d%n",
        answers.getOrDefault("lease COMMIT_UNKNOWN", 0),
        sum(takenByCutLeases),
        takenByCutLeases.size(),
        sum(undelivered),
        sum(expired),
        giveBacksCut,
        stillToGiveBack,
        attemptsMiscounted);

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

    assertThat(answers.getOrDefault("lease COMMIT_UNKNOWN", 0)).as("leases cut").isPositive();
    assertThat(sum(takenByCutLeases)).as("messages taken by cut leases").isPositive();
    assertThat(undelivered.keySet())
        .as("only messages a cut lease took are given back")
        .isSubsetOf(takenByCutLeases.keySet());
    assertThat(expired.keySet())
        .as("only messages a cut lease took run out their lease")
        .isSubsetOf(takenByCutLeases.keySet());
    assertThat(takenByCutLeases)
        .allSatisfy(
            (id, taken) ->
                assertThat(undelivered.getOrDefault(id, 0) + expired.getOrDefault(id, 0))
                    .as("LEASE_UNDELIVERED + LEASE_EXPIRED entries of %s", id)
                    .isEqualTo(taken));
    assertThat(sum(undelivered)).as("given back at once").isPositive();
    assertThat(attemptsMiscounted).isZero();
    assertThat(stillToGiveBack).as("a cut give-back had committed").isZero();
  }

  /**
   * A single enqueue into one queue without a dedupe key is one statement committed as it ends
   * (docs/design-decisions.md §21): a cut answer is COMMIT_UNKNOWN and the message is there; every
   * other answer is exact.
   */
  @Test
  void cutSingleEnqueuesWithoutKeys_areCommitUnknown_andEveryOtherAnswerIsExact() {
    cutting.cutShare(0.3);
    for (int i = 0; i < 100; i++) {
      NewMessage m = NewMessage.builder(QUEUE, "ship").payload("p-" + i).build();
      try {
        answered("enqueue", () -> redrive.enqueue(m));
      } catch (RedriveException e) {
        // counted by answered(); never retried: without a dedupe key a retry could duplicate
      }
    }
    cutting.cutShare(0);

    int ok = answers.getOrDefault("enqueue OK", 0);
    int unknown = answers.getOrDefault("enqueue COMMIT_UNKNOWN", 0);
    assertThat(unknown).as("cut enqueues").isPositive();
    assertThat(ok + unknown).as("no answer but OK and COMMIT_UNKNOWN: %s", answers).isEqualTo(100);
    assertThat(committedButAnsweredAsFailure).isZero();
    // The cut came after the database had committed: each COMMIT_UNKNOWN enqueue went in.
    assertThat(redrive.stats(QUEUE).total()).isEqualTo(100);
  }

  private static int sum(Map<String, Integer> counts) {
    return counts.values().stream().mapToInt(Integer::intValue).sum();
  }

  /**
   * Reads a leased message's history: each lease cut before it shows as one LEASE_UNDELIVERED (or
   * LEASE_EXPIRED) entry, and its attempt counts only its failures and expired leases.
   */
  private void checkHistory(LeasedMessage m) {
    List<HistoryEntry> history = redrive.getMessage(m.id()).history(); // a read: never cut
    int given =
        (int) history.stream().filter(e -> e.outcome() == Outcome.LEASE_UNDELIVERED).count();
    int ran = (int) history.stream().filter(e -> e.outcome() == Outcome.LEASE_EXPIRED).count();
    if (given > 0) {
      undelivered.put(m.id(), given);
    }
    if (ran > 0) {
      expired.put(m.id(), ran);
    }
    if (m.attempt() != 1 + failures.getOrDefault(m.id(), 0) + ran) {
      attemptsMiscounted++;
    }
  }

  /**
   * The store under the engine, noting which messages a lease whose answer was cut took (read on a
   * connection that is never cut, before the engine gives them back) and counting cut give-backs.
   */
  private Store watchingLostLeases(Store real) {
    return (Store)
        Proxy.newProxyInstance(
            Store.class.getClassLoader(),
            new Class<?>[] {Store.class},
            (proxy, method, args) -> {
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                if (e.getCause() instanceof CommitUnknownException) {
                  if (method.getName().equals("leaseReady")) {
                    for (String id : leasedBy(((LeaseParams) args[0]).batch())) {
                      takenByCutLeases.merge(id, 1, Integer::sum);
                    }
                  } else if (method.getName().equals("releaseUndelivered")) {
                    giveBacksCut++;
                  }
                }
                throw e.getCause();
              }
            });
  }

  private List<String> leasedBy(String batch) throws SQLException {
    try (Connection c = base.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT id FROM redrive.redrive_messages"
                    + " WHERE state = 'LEASED' AND lease_batch = ?")) {
      ps.setString(1, batch);
      List<String> ids = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getString(1));
        }
      }
      return ids;
    }
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
    int cutsBefore = cutting.cutsOnThisThread(); // the call's own commits, not a background one
    try {
      T result = call.get();
      boolean repeated = result instanceof SettleResult s && s.repeated();
      answers.merge(op + (repeated ? " OK repeated" : " OK"), 1, Integer::sum);
      return result;
    } catch (RedriveException e) {
      answers.merge(op + " " + e.code(), 1, Integer::sum);
      if (cutting.cutsOnThisThread() > cutsBefore && !e.code().equals("COMMIT_UNKNOWN")) {
        committedButAnsweredAsFailure++;
      }
      throw e;
    }
  }
}
