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

  /** The priority (0–9, higher served first) of a message enqueued without one. */
  private Integer defaultPriority;

  /** The head start one step of priority is worth (1s–1d), for messages enqueued from then on. */
  private Duration priorityAging;

  /** Flow limit: most messages of the queue leased at once, on all nodes (1–100000). */
  private Integer maxRunning;

  /** Flow limit: most messages of one limit key leased at once (1: each key a singleton). */
  private Integer maxRunningPerKey;

  /** Flow limit: most leases of the queue per period, e.g. 100/1m. */
  private String rate;

  /** Flow limit: most leases of one limit key per period, e.g. 10/1s. */
  private String ratePerKey;

  /** Spread of each retry delay d: NONE (exact), FULL (0 to d) or EQUAL (d/2 to d). */
  private String backoffJitter;

  /** Circuit breaker: failures naming one dependency that open its circuit; sets it on. */
  private Integer circuitFailures;

  /** Circuit breaker: how far back failures count (default 30s). */
  private Duration circuitWindow;

  /** Circuit breaker: the wait before each probe, and each half-open wave (default 10s). */
  private Duration circuitProbeInterval;

  /** Circuit breaker: messages let through per probe interval when half-open, e.g. 1,5,25. */
  private String circuitWaves;

  /** Circuit breaker: name a dependency from a failure that names none. */
  private Boolean circuitLearn;

  public Integer getCircuitFailures() {
    return circuitFailures;
  }

  public void setCircuitFailures(Integer circuitFailures) {
    this.circuitFailures = circuitFailures;
  }

  public Duration getCircuitWindow() {
    return circuitWindow;
  }

  public void setCircuitWindow(Duration circuitWindow) {
    this.circuitWindow = circuitWindow;
  }

  public Duration getCircuitProbeInterval() {
    return circuitProbeInterval;
  }

  public void setCircuitProbeInterval(Duration circuitProbeInterval) {
    this.circuitProbeInterval = circuitProbeInterval;
  }

  public String getCircuitWaves() {
    return circuitWaves;
  }

  public void setCircuitWaves(String circuitWaves) {
    this.circuitWaves = circuitWaves;
  }

  public Boolean getCircuitLearn() {
    return circuitLearn;
  }

  public void setCircuitLearn(Boolean circuitLearn) {
    this.circuitLearn = circuitLearn;
  }

  public String getBackoffJitter() {
    return backoffJitter;
  }

  public void setBackoffJitter(String backoffJitter) {
    this.backoffJitter = backoffJitter;
  }

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

  public Integer getDefaultPriority() {
    return defaultPriority;
  }

  public void setDefaultPriority(Integer defaultPriority) {
    this.defaultPriority = defaultPriority;
  }

  public Duration getPriorityAging() {
    return priorityAging;
  }

  public void setPriorityAging(Duration priorityAging) {
    this.priorityAging = priorityAging;
  }

  public Integer getMaxRunning() {
    return maxRunning;
  }

  public void setMaxRunning(Integer maxRunning) {
    this.maxRunning = maxRunning;
  }

  public Integer getMaxRunningPerKey() {
    return maxRunningPerKey;
  }

  public void setMaxRunningPerKey(Integer maxRunningPerKey) {
    this.maxRunningPerKey = maxRunningPerKey;
  }

  public String getRate() {
    return rate;
  }

  public void setRate(String rate) {
    this.rate = rate;
  }

  public String getRatePerKey() {
    return ratePerKey;
  }

  public void setRatePerKey(String ratePerKey) {
    this.ratePerKey = ratePerKey;
  }
}
