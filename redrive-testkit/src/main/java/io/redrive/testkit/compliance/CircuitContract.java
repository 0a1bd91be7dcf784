package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.Message;
import io.redrive.message.Outcome;
import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.CircuitState;
import io.redrive.queue.CircuitStatus;
import io.redrive.queue.QueuePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Circuit breakers per dependency, decided in the store: failures naming a dependency open its
 * circuit at the threshold; while open, the messages that need it (their last failure named it, or
 * their type failed against it) are not leased and use no attempt, and a failure against it is
 * refunded; at the probe one canary goes; half-open, waves of messages go per probe interval until
 * it closes; a failed canary re-opens it; an operator opens and closes it by hand. Other
 * dependencies and types keep flowing. Time from the controllable clock.
 */
public abstract class CircuitContract extends ComplianceTestBase {
  private static final String SMTP = "smtp";
  private static final String OTHER_TYPE = "charge-card";
  private static final Duration PROBE = Duration.ofSeconds(10);

  /** 3 failures within 30 s open it; a probe every 10 s; waves 1, 2, 4. Retries at once. */
  private static QueuePolicy circuitPolicy() {
    return defaults()
        .withRetry(20, Duration.ZERO)
        .withCircuit(new CircuitPolicy(3, Duration.ofSeconds(30), PROBE, List.of(1, 2, 4), false));
  }

  private SettleResult failAgainst(LeasedMessage m, String dependency) {
    return redrive.fail(
        FailRequest.of(m.token(), FailureReason.DEPENDENCY_FAILURE, dependency + " down")
            .withDependency(dependency));
  }

  private CircuitStatus circuit(String dependency) {
    return redrive.circuits(QUEUE).stream()
        .filter(c -> c.dependency().equals(dependency))
        .findFirst()
        .orElseThrow();
  }

  /** Opens the SMTP circuit: three messages fail against it. Returns their ids. */
  private List<String> openSmtp() {
    List<String> failed = new ArrayList<>();
    for (LeasedMessage m : lease(QUEUE, 3).leased()) {
      failAgainst(m, SMTP);
      failed.add(m.id());
    }
    assertThat(circuit(SMTP).state()).isEqualTo(CircuitState.OPEN);
    return failed;
  }

  @Test
  void fail_belowTheThreshold_countsAndKeepsItClosed() {
    createQueue(QUEUE, circuitPolicy());
    enqueueMany(QUEUE, 2);

    for (LeasedMessage m : lease(QUEUE, 2).leased()) {
      failAgainst(m, SMTP);
    }

    CircuitStatus c = circuit(SMTP);
    assertThat(c.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(c.failures()).isEqualTo(2);
    assertThat(c.types()).containsExactly(TYPE);
    assertThat(lease(QUEUE, 5).leased()).hasSize(2);
  }

  @Test
  void fail_atTheThreshold_opensIt_andItsMessagesAreNotLeased() {
    createQueue(QUEUE, circuitPolicy());
    List<String> ids = enqueueMany(QUEUE, 5);

    List<String> failed = openSmtp();

    CircuitStatus c = circuit(SMTP);
    assertThat(c.openedAt()).isEqualTo(now());
    assertThat(c.nextProbeAt()).isEqualTo(now().plus(PROBE));
    assertThat(c.changedBy()).isEqualTo("engine");
    assertThat(c.held()).as("the failed three and the two of their type").isEqualTo(5);
    assertThat(c.history())
        .extracting(CircuitStatus.Change::state)
        .containsExactly(CircuitState.OPEN);
    assertNothingLeasable(QUEUE);
    for (String id : ids) {
      assertThat(message(id).attempts()).isLessThanOrEqualTo(1);
    }
    assertThat(failed).allSatisfy(id -> assertThat(message(id).attempts()).isEqualTo(1));
  }

  @Test
  void open_otherTypesAndOtherDependenciesKeepFlowing() {
    createQueue(QUEUE, circuitPolicy());
    enqueueMany(QUEUE, 3);
    openSmtp();
    String other =
        enqueue(io.redrive.message.NewMessage.builder(QUEUE, OTHER_TYPE).payload(PAYLOAD).build());

    List<LeasedMessage> leased = lease(QUEUE, 10).leased();

    assertThat(leased).extracting(LeasedMessage::id).containsExactly(other);
  }

  @Test
  void open_aFailureOfAnInFlightMessage_isRefundedAndHeld() {
    createQueue(QUEUE, circuitPolicy());
    enqueueMany(QUEUE, 4);
    List<LeasedMessage> all = lease(QUEUE, 4).leased();
    for (int i = 0; i < 3; i++) {
      failAgainst(all.get(i), SMTP);
    }
    LeasedMessage inFlight = all.get(3);

    SettleResult held = failAgainst(inFlight, SMTP);

    Message m = message(inFlight.id());
    assertThat(m.attempts()).as("refunded").isZero();
    assertThat(held.visibleAt()).isBetween(now().plus(PROBE), now().plus(PROBE).plus(PROBE));
    assertThat(last(m).outcome()).isEqualTo(Outcome.ABANDONED);
    assertThat(last(m).note()).isEqualTo("held: circuit smtp open (attempt refunded)");
    assertThat(circuit(SMTP).state()).isEqualTo(CircuitState.OPEN);
  }

  @Test
  void probe_oneCanaryAtTheProbeTime_thenWaves_thenClosed() {
    createQueue(QUEUE, circuitPolicy());
    enqueueMany(QUEUE, 12);
    openSmtp();

    advance(PROBE.minus(MILLI));
    assertNothingLeasable(QUEUE);
    advance(MILLI);
    List<LeasedMessage> canary = lease(QUEUE, 10).leased();
    assertThat(canary).as("one canary").hasSize(1);
    assertThat(circuit(SMTP).state()).isEqualTo(CircuitState.HALF_OPEN);
    complete(canary.get(0));
    assertNothingLeasable(QUEUE);

    advance(PROBE);
    List<LeasedMessage> second = lease(QUEUE, 10).leased();
    assertThat(second).as("second wave").hasSize(2);
    second.forEach(this::complete);
    advance(PROBE);
    List<LeasedMessage> third = lease(QUEUE, 10).leased();
    assertThat(third).as("third wave").hasSize(4);
    third.forEach(this::complete);
    assertNothingLeasable(QUEUE);

    advance(PROBE);
    assertThat(lease(QUEUE, 10).leased()).as("closed: the rest").hasSize(5);
    CircuitStatus c = circuit(SMTP);
    assertThat(c.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(c.history())
        .extracting(CircuitStatus.Change::state)
        .containsExactly(CircuitState.CLOSED, CircuitState.HALF_OPEN, CircuitState.OPEN);
  }

  @Test
  void probe_aFailedCanary_reopensUntilTheNextProbe_refunded() {
    createQueue(QUEUE, circuitPolicy());
    enqueueMany(QUEUE, 5);
    openSmtp();
    advance(PROBE);
    LeasedMessage canary = lease(QUEUE, 10).leased().get(0);
    int attemptsBefore = canary.attempt() - 1;

    failAgainst(canary, SMTP);

    CircuitStatus c = circuit(SMTP);
    assertThat(c.state()).isEqualTo(CircuitState.OPEN);
    assertThat(c.nextProbeAt()).isEqualTo(now().plus(PROBE));
    assertThat(message(canary.id()).attempts()).isEqualTo(attemptsBefore);
    assertNothingLeasable(QUEUE);
    advance(PROBE);
    assertThat(lease(QUEUE, 10).leased()).as("the next canary").hasSize(1);
  }

  @Test
  void closed_afterTheOutage_theQueueLeasesInOneStatementAgain() {
    createQueue(QUEUE, circuitPolicy().withRetry(20, Duration.ZERO));
    enqueueMany(QUEUE, 3);
    openSmtp();
    redrive.setCircuit(QUEUE, SMTP, false);

    assertThat(lease(QUEUE, 10).leased()).hasSize(3);
    assertThat(redrive.flowStatus(QUEUE).running()).isZero();
  }

  @Test
  void setCircuit_openByHand_holdsWithoutProbes_untilClosedByHand() {
    createQueue(QUEUE, circuitPolicy());
    String id = enqueue(QUEUE);
    failAgainst(leaseOne(QUEUE), SMTP);

    CircuitStatus open = redrive.setCircuit(QUEUE, SMTP, true);

    assertThat(open.state()).isEqualTo(CircuitState.OPEN);
    assertThat(open.nextProbeAt()).isNull();
    assertThat(open.changedBy()).isEqualTo("operator");
    advance(Duration.ofHours(1));
    assertNothingLeasable(QUEUE);
    CircuitStatus closed = redrive.setCircuit(QUEUE, SMTP, false);
    assertThat(closed.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(closed.history()).hasSize(2);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(id);
  }

  @Test
  void setCircuit_queueWithoutCircuitBreaker_isRefusedAndChangesNothing() {
    createQueue(QUEUE);

    assertThatThrownBy(() -> redrive.setCircuit(QUEUE, SMTP, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no circuit breaker");
    assertThat(redrive.circuits(QUEUE)).isEmpty();
  }

  @Test
  void fail_noCircuitBreaker_dependencyChangesNothing() {
    createQueue(QUEUE, defaults().withRetry(5, Duration.ZERO));
    enqueue(QUEUE);

    for (int i = 0; i < 4; i++) {
      failAgainst(leaseOne(QUEUE), SMTP);
    }

    assertThat(redrive.circuits(QUEUE)).isEmpty();
    assertThat(leaseOne(QUEUE).attempt()).isEqualTo(5);
  }

  @Test
  void policy_readsBackEqual() {
    QueuePolicy p = circuitPolicy();
    createQueue(QUEUE, p);

    assertThat(redrive.getQueue(QUEUE).policy().circuit()).isEqualTo(p.circuit());
    assertThat(redrive.getQueue(QUEUE).policy()).isEqualTo(p);
  }

  @Test
  @Timeout(60)
  void concurrentFailures_fromThreads_agreeOnOneCount() throws Exception {
    createQueue(QUEUE, circuitPolicy().withCircuit(circuitPolicy().circuit().withFailures(8)));
    enqueueMany(QUEUE, 8);
    List<LeasedMessage> leased = lease(QUEUE, 8).leased();
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (LeasedMessage m : leased) {
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                  failAgainst(m, SMTP);
                } catch (Throwable e) {
                  errors.add(e);
                }
              });
      t.start();
      threads.add(t);
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }

    assertThat(errors).isEmpty();
    CircuitStatus c = circuit(SMTP);
    assertThat(c.state()).as("the eighth failure opened it").isEqualTo(CircuitState.OPEN);
    assertThat(c.history()).hasSize(1);
  }

  @Test
  void learn_aFailureNamingNoDependency_countsAgainstTheHostItsTextNames() {
    createQueue(
        QUEUE,
        circuitPolicy().withCircuit(circuitPolicy().circuit().withFailures(1).withLearn(true)));
    enqueue(QUEUE);

    redrive.fail(
        FailRequest.of(
            leaseOne(QUEUE).token(),
            FailureReason.TRANSPORT_UNAVAILABLE,
            "java.net.ConnectException: Connection refused: smtp.example.com/10.0.0.5:25"));

    assertThat(circuit("smtp.example.com:25").state()).isEqualTo(CircuitState.OPEN);
  }

  @Test
  void learn_off_aFailureNamingNoDependency_countsNowhere() {
    createQueue(QUEUE, circuitPolicy());
    enqueue(QUEUE);

    redrive.fail(
        FailRequest.of(
            leaseOne(QUEUE).token(),
            FailureReason.TRANSPORT_UNAVAILABLE,
            "java.net.ConnectException: Connection refused: smtp.example.com/10.0.0.5:25"));

    assertThat(redrive.circuits(QUEUE)).isEmpty();
  }

  /**
   * The performance rule: a queue whose circuits are all closed (here one that opened and was
   * closed again) leases and completes in as many statements as a queue without a circuit breaker.
   */
  @Test
  void closedCircuits_leaseAndCompleteCostWhatAPlainQueueCosts() {
    java.util.concurrent.atomic.AtomicReference<io.redrive.testkit.fault.StatementFailingDataSource>
        faults = new java.util.concurrent.atomic.AtomicReference<>();
    io.redrive.store.Store counting =
        db.openStore(
            base -> {
              faults.set(new io.redrive.testkit.fault.StatementFailingDataSource(base));
              return faults.get();
            });
    io.redrive.Redrive node = io.redrive.Redrive.builder(counting).clock(clock).build();
    createQueue(QUEUE, circuitPolicy());
    createQueue(OTHER, defaults().withRetry(20, Duration.ZERO));
    enqueueMany(QUEUE, 3);
    openSmtp();
    redrive.setCircuit(QUEUE, SMTP, false);
    enqueueMany(QUEUE, 3);
    enqueueMany(OTHER, 6);

    int[] circuit = statements(node, faults.get(), QUEUE);
    int[] plain = statements(node, faults.get(), OTHER);

    assertThat(circuit).as("lease, complete: circuit breaker on, all closed").isEqualTo(plain);
  }

  /** Statements of a lease of one message and of its complete (after one warm-up of each). */
  private static int[] statements(
      io.redrive.Redrive node,
      io.redrive.testkit.fault.StatementFailingDataSource faults,
      String q) {
    node.complete(
        node.lease(io.redrive.lease.LeaseRequest.of(q, WORKER, 1)).leased().get(0).token());
    faults.failAt(Integer.MAX_VALUE);
    LeasedMessage m = node.lease(io.redrive.lease.LeaseRequest.of(q, WORKER, 1)).leased().get(0);
    int lease = faults.executed();
    faults.failAt(Integer.MAX_VALUE);
    node.complete(m.token());
    int complete = faults.executed();
    faults.disarm();
    return new int[] {lease, complete};
  }
}
