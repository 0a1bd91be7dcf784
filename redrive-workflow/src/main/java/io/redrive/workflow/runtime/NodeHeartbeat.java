package io.redrive.workflow.runtime;

import io.redrive.store.workflow.PublishNodeParams;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node's row in the store's live nodes (docs/workflows.md, "Nodes"): written once at
 * {@link #start} (a failure there fails the runtime's start), rewritten every {@code period} by its
 * own daemon thread, which alone enters {@link #publish} afterwards, and deleted by {@link #stop}.
 * A row lives {@link #EXPIRY_PERIODS} periods, so a node that dies leaves the list that much later;
 * a publish that fails is logged and tried again at the next period.
 */
public final class NodeHeartbeat {
  /** A row not rewritten within this many periods counts as gone. */
  public static final int EXPIRY_PERIODS = 3;

  private static final Logger LOG = LoggerFactory.getLogger("io.redrive.workflow.runtime");

  private final WorkflowStore store;
  private final Clock clock;
  private final String nodeId;
  private final String buildId;
  private final String registrations;
  private final Instant startedAt;
  private final Duration period;
  private final ScheduledExecutorService timer;

  private NodeHeartbeat(
      WorkflowStore store,
      Clock clock,
      RuntimeSettings settings,
      String registrations,
      Instant startedAt,
      Duration period) {
    this.store = store;
    this.clock = clock;
    this.nodeId = settings.nodeId();
    this.buildId = settings.buildId();
    this.registrations = registrations;
    this.startedAt = startedAt;
    this.period = period;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "redrive-wf-node-" + nodeId);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Publishes the node's row now, then every {@code period}.
   *
   * @param registrations what the node runs, as JSON the store keeps as it is
   */
  public static NodeHeartbeat start(
      WorkflowStore store,
      Clock clock,
      RuntimeSettings settings,
      String registrations,
      Instant startedAt,
      Duration period) {
    NodeHeartbeat h = new NodeHeartbeat(store, clock, settings, registrations, startedAt, period);
    try {
      h.publish();
    } catch (RuntimeException e) {
      h.timer.shutdownNow();
      throw e;
    }
    long ms = period.toMillis();
    h.timer.scheduleWithFixedDelay(h::publishQuietly, ms, ms, TimeUnit.MILLISECONDS);
    return h;
  }

  private void publish() {
    Instant now = clock.instant();
    store.publishNode(
        new PublishNodeParams(
            nodeId,
            buildId,
            registrations,
            startedAt,
            now.plus(period.multipliedBy(EXPIRY_PERIODS)),
            now));
  }

  private void publishQuietly() {
    try {
      publish();
    } catch (RuntimeException e) {
      LOG.warn(
          "workflow node {}: publishing its row failed, trying again in {}", nodeId, period, e);
    }
  }

  /** Stops publishing and deletes the row, so the node leaves the list at once. */
  public void stop() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      store.removeNode(nodeId);
    } catch (RuntimeException e) {
      LOG.warn("workflow node {}: deleting its row failed; it expires by itself", nodeId, e);
    }
  }
}
