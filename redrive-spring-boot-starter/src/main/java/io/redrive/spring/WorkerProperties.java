package io.redrive.spring;

import java.time.Duration;

/**
 * The settings of a queue's worker: {@code redrive.worker.*} (every queue's) and {@code
 * redrive.workers.<queue>.*} (one queue's, over those).
 */
public class WorkerProperties {
  /** Handlers running at once (default: the worker's, 4). */
  private Integer concurrency;

  /** Messages leased per round (default: the worker's, from its concurrency). */
  private Integer batchSize;

  /** The lease timeout of the messages it leases (default: the queue's). */
  private Duration leaseTimeout;

  /**
   * How long a stop lets running handlers finish (default: a second less than
   * spring.lifecycle.timeout-per-shutdown-phase).
   */
  private Duration shutdownGrace;

  /** These settings where set, else {@code base}'s. */
  WorkerProperties over(WorkerProperties base) {
    WorkerProperties out = new WorkerProperties();
    out.concurrency = concurrency != null ? concurrency : base.concurrency;
    out.batchSize = batchSize != null ? batchSize : base.batchSize;
    out.leaseTimeout = leaseTimeout != null ? leaseTimeout : base.leaseTimeout;
    out.shutdownGrace = shutdownGrace != null ? shutdownGrace : base.shutdownGrace;
    return out;
  }

  void applyTo(io.redrive.worker.Worker.Builder builder) {
    if (concurrency != null) {
      builder.concurrency(concurrency);
    }
    if (batchSize != null) {
      builder.batchSize(batchSize);
    }
    if (leaseTimeout != null) {
      builder.leaseTimeout(leaseTimeout);
    }
  }

  public Integer getConcurrency() {
    return concurrency;
  }

  public void setConcurrency(Integer concurrency) {
    this.concurrency = concurrency;
  }

  public Integer getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(Integer batchSize) {
    this.batchSize = batchSize;
  }

  public Duration getLeaseTimeout() {
    return leaseTimeout;
  }

  public void setLeaseTimeout(Duration leaseTimeout) {
    this.leaseTimeout = leaseTimeout;
  }

  public Duration getShutdownGrace() {
    return shutdownGrace;
  }

  public void setShutdownGrace(Duration shutdownGrace) {
    this.shutdownGrace = shutdownGrace;
  }
}
