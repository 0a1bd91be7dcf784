package io.redrive.workflow;

import java.time.Duration;

/**
 * The workflow runtime's defaults (docs/workflows.md), in one place so the runtime, the server and
 * the docs agree.
 */
final class WorkflowDefaults {
  /**
   * Counted tries of a turn's batch (and of an activity message) before it is poison. Higher than
   * the queue default of 5 on purpose: with the unregistered-code backoff, 10 tries give a rolling
   * deploy about five minutes to reach every node before an instance whose code is missing fails.
   */
  public static final int MAX_ATTEMPTS = 10;

  /**
   * Distinct nodes whose turn lease on a batch may run out (a crash or hang each) before the batch
   * is poison, whatever attempts are left: a history that kills its node on replay stops after two
   * nodes instead of ten.
   */
  public static final int MAX_CRASHES = 2;

  /** The workflow-owned queue activities run in unless an activity names another. */
  public static final String ACTIVITY_QUEUE = "wf.activities";

  /** How long a turn lease lasts unless renewed (every third of it while the turn runs). */
  public static final Duration TURN_LEASE_TIMEOUT = Duration.ofSeconds(15);

  /** A turn running longer is interrupted and abandoned (TURN_TIMEOUT, counted). */
  public static final Duration MAX_TURN_DURATION = Duration.ofSeconds(60);

  /** Inbox rows one turn takes at most. */
  public static final int MAX_BATCH = 500;

  /** Instances whose history a runtime keeps after their turns (docs/workflows.md). */
  public static final int HISTORY_CACHE_SIZE = 1000;

  /**
   * How long an instance whose history a node keeps is left to that node before any node leases its
   * turn. A live node with a free slot takes its own within milliseconds of the wake-up; one second
   * covers a pause or a briefly full node, and bounds what a node that died costs each of its
   * instances.
   */
  public static final Duration STICKY_WAIT = Duration.ofSeconds(1);

  /** Events one execution's history may hold; past half, continue-as-new is suggested. */
  public static final int MAX_HISTORY_EVENTS = 10_000;

  /** Bytes one execution's history may hold; past half, continue-as-new is suggested. */
  public static final long MAX_HISTORY_BYTES = 16L * 1024 * 1024;

  /** The longest declared timeout of an activity that runs locally by default. */
  public static final Duration LOCAL_ACTIVITY_MAX_TIMEOUT = Duration.ofSeconds(30);

  private WorkflowDefaults() {}

  /**
   * How often a runtime rewrites its row among the live nodes; a row not rewritten for three
   * periods counts as gone.
   */
  public static final Duration NODE_HEARTBEAT = Duration.ofSeconds(10);
}
