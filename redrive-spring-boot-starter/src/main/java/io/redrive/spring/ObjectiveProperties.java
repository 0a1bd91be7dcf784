package io.redrive.spring;

import java.time.Duration;

/**
 * One queue-age objective declared in properties, {@code redrive.objectives.<name>.*}, with the
 * fields of redrive.toml's {@code [objectives.<name>]} (docs/spring-boot.md, "Objectives"). {@link
 * ObjectiveDeclarations} checks and saves it.
 */
public class ObjectiveProperties {
  /** The queue measured. */
  private String queue;

  /** Only messages of this type. */
  private String type;

  /** Only messages of this stream. */
  private String stream;

  /** latency (first leases within bound of their enqueue) or age (oldest ready within bound). */
  private String kind;

  /** The share that must be good, between 0 and 1 exclusive (0.95). */
  private Double target;

  /** The wait or age that counts as good, at least 1s. */
  private Duration bound;

  /** The compliance window, whole minutes from 1h to 28d. */
  private Duration window = Duration.ofDays(28);

  public String getQueue() {
    return queue;
  }

  public void setQueue(String queue) {
    this.queue = queue;
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getStream() {
    return stream;
  }

  public void setStream(String stream) {
    this.stream = stream;
  }

  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public Double getTarget() {
    return target;
  }

  public void setTarget(Double target) {
    this.target = target;
  }

  public Duration getBound() {
    return bound;
  }

  public void setBound(Duration bound) {
    this.bound = bound;
  }

  public Duration getWindow() {
    return window;
  }

  public void setWindow(Duration window) {
    this.window = window;
  }
}
