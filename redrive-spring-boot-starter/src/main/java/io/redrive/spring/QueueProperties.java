package io.redrive.spring;

import java.time.Duration;

/**
 * {@code redrive.queues.<name>.*}: one declared queue's policy fields (null: not declared, the
 * queue keeps its value); {@link QueueDeclarations} applies them.
 */
public class QueueProperties {
  /** Deliveries before a message dies (POISON), 1–10000. */
  private Integer maxAttempts;

  /** How long a lease lasts before the message is delivered again. */
  private Duration leaseTimeout;

  /** How long a message may wait in the queue before it dies (EXPIRED). */
  private Duration expireAfter;

  /** Where dead messages go: keep (stay in this queue), discard, or the name of a queue. */
  private String deadLetter;

  /** Distinct workers whose crash a message may survive before it dies (crash-loop breaker). */
  private Integer maxCrashes;

  /** How long its completed messages keep their story (0s: none; default: the engine's). */
  private Duration completedRetention;

  public Integer getMaxAttempts() {
    return maxAttempts;
  }

  public void setMaxAttempts(Integer maxAttempts) {
    this.maxAttempts = maxAttempts;
  }

  public Duration getLeaseTimeout() {
    return leaseTimeout;
  }

  public void setLeaseTimeout(Duration leaseTimeout) {
    this.leaseTimeout = leaseTimeout;
  }

  public Duration getExpireAfter() {
    return expireAfter;
  }

  public void setExpireAfter(Duration expireAfter) {
    this.expireAfter = expireAfter;
  }

  public String getDeadLetter() {
    return deadLetter;
  }

  public void setDeadLetter(String deadLetter) {
    this.deadLetter = deadLetter;
  }

  public Integer getMaxCrashes() {
    return maxCrashes;
  }

  public void setMaxCrashes(Integer maxCrashes) {
    this.maxCrashes = maxCrashes;
  }

  public Duration getCompletedRetention() {
    return completedRetention;
  }

  public void setCompletedRetention(Duration completedRetention) {
    this.completedRetention = completedRetention;
  }
}
