package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.lease.LeaseResult;
import io.redrive.message.CrashEvidence;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import io.redrive.store.LeaseParams;
import io.redrive.store.NodeBeatParams;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Crash evidence for the crash-loop breaker (docs/engine.md, "Crash evidence"): engine nodes keep
 * liveness rows ({@code Store.beatNode}), and a lease expiry on a queue with {@code maxCrashes}
 * counts as a crash only when some node was continuously alive across the lease (or the node
 * leasing now was alive since its start); otherwise it is an outage, recorded but not counted.
 * Leases here go to the store directly, so no engine beats behind the test's back.
 */
public abstract class CrashEvidenceContract extends ComplianceTestBase {
  private static final Duration LEASE = Duration.ofSeconds(10);
  private static final Duration STALE = Duration.ofSeconds(15);
  private static final Duration FORGET = Duration.ofDays(7);

  private Instant beat(String node) {
    return store.beatNode(new NodeBeatParams(node, now(), STALE, FORGET));
  }

  /** A lease of one message by {@code worker}, as engine node {@code node} (null: none). */
  private LeaseResult leaseAs(String worker, String node) {
    return store.leaseReady(
        new LeaseParams(
            QUEUE, worker, 1, LEASE, now(), UUID.randomUUID().toString(), Set.of(), node));
  }

  private List<Optional<CrashEvidence>> evidence(String id) {
    return message(id).history().stream()
        .filter(e -> e.outcome() == Outcome.LEASE_EXPIRED)
        .map(CrashEvidence::of)
        .toList();
  }

  @Test
  void expiry_anotherNodeAliveAcrossTheLease_isAWorkerCrash_andCounts() {
    createQueue(QUEUE, defaults().withMaxAttempts(10).withMaxCrashes(2));
    String id = enqueue(QUEUE);
    beat("watcher");
    assertThat(leaseAs("node-a", null).leased()).hasSize(1);
    advance(LEASE);
    beat("watcher");
    assertThat(leaseAs("node-b", null).leased()).hasSize(1);
    advance(LEASE);
    beat("watcher");

    LeaseResult third = leaseAs("node-c", null);

    assertThat(third.crashPoisoned()).containsExactly(id);
    assertThat(evidence(id))
        .containsExactly(
            Optional.of(CrashEvidence.WORKER_DIED), Optional.of(CrashEvidence.WORKER_DIED));
    HistoryEntry first = message(id).history().get(0);
    assertThat(first.note()).isEqualTo(CrashEvidence.WORKER_DIED.note());
    assertThat(first.note()).startsWith("evidence: worker-died");
  }

  @Test
  void expiry_everyLivenessRowStaleAcrossTheLease_isAnOutage_notCounted() {
    createQueue(QUEUE, defaults().withMaxAttempts(10).withMaxCrashes(2));
    String id = enqueue(QUEUE);
    beat("watcher");
    leaseAs("node-a", null);
    advance(LEASE);
    leaseAs("node-b", null);
    advance(LEASE);

    LeaseResult third = leaseAs("node-c", null);

    assertThat(third.poisoned()).isEmpty();
    assertThat(ids(third)).containsExactly(id);
    assertThat(third.leased().get(0).attempt()).isEqualTo(3);
    assertThat(evidence(id))
        .containsExactly(Optional.of(CrashEvidence.OUTAGE), Optional.of(CrashEvidence.OUTAGE));
    assertThat(message(id).history().get(0).note()).startsWith("evidence: outage");
  }

  @Test
  void databaseOutage_resetsAliveSince_soTheExpiryAcrossItIsAnOutage() {
    createQueue(QUEUE, defaults().withMaxAttempts(10).withMaxCrashes(1));
    String id = enqueue(QUEUE);
    Instant start = now();
    assertThat(beat("watcher")).isEqualTo(start);
    leaseAs("node-a", null);
    advance(Duration.ofSeconds(20)); // no beat got through: longer than the stale limit

    assertThat(beat("watcher")).as("a new span").isEqualTo(now());
    LeaseResult again = leaseAs("node-b", null);

    assertThat(again.poisoned()).isEmpty();
    assertThat(ids(again)).containsExactly(id);
    assertThat(evidence(id)).containsExactly(Optional.of(CrashEvidence.OUTAGE));
  }

  @Test
  void beatsWithinTheStaleLimit_keepTheSpan() {
    Instant start = now();
    beat("watcher");
    advance(Duration.ofSeconds(10));
    assertThat(beat("watcher")).isEqualTo(start);
    advance(Duration.ofSeconds(15));
    assertThat(beat("watcher")).as("15 s is not older than the limit").isEqualTo(start);
    advance(Duration.ofSeconds(16));
    assertThat(beat("watcher")).isEqualTo(now());
  }

  @Test
  void leasingNode_aliveSinceBeforeTheLease_isItsOwnWitness_aNewcomerIsNot() {
    createQueue(QUEUE, defaults().withMaxAttempts(10).withMaxCrashes(5));
    String id = enqueue(QUEUE);
    beat("survivor");
    leaseAs("node-a", null);
    advance(LEASE);
    beat("newcomer");

    leaseAs("node-b", "newcomer");
    advance(LEASE);
    leaseAs("node-c", "survivor");

    assertThat(evidence(id))
        .containsExactly(Optional.of(CrashEvidence.OUTAGE), Optional.of(CrashEvidence.WORKER_DIED));
  }

  @Test
  void queueWithoutTheBreaker_recordsNoEvidence() {
    createQueue(QUEUE, defaults().withMaxAttempts(10));
    String id = enqueue(QUEUE);
    beat("watcher");
    leaseAs("node-a", null);
    advance(LEASE);
    beat("watcher");
    leaseAs("node-b", null);

    assertThat(evidence(id)).containsExactly(Optional.empty());
    assertThat(message(id).history().get(0).note()).isNull();
  }

  @Test
  void engineLease_beatsItsNode_andWitnessesExpiriesItMeets() {
    createQueue(QUEUE, defaults().withMaxAttempts(10).withMaxCrashes(2));
    String id = enqueue(QUEUE);
    redrive.lease(new io.redrive.lease.LeaseRequest(QUEUE, "node-a", 1, LEASE));
    advance(LEASE);

    redrive.lease(new io.redrive.lease.LeaseRequest(QUEUE, "node-b", 1, LEASE));

    assertThat(evidence(id)).containsExactly(Optional.of(CrashEvidence.WORKER_DIED));
    assertThat(redrive.nodeId()).startsWith("engine-");
  }
}
