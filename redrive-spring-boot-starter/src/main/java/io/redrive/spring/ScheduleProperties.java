package io.redrive.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code redrive.schedules.<name>.*}: one declared recurring schedule, the properties twin of
 * redrive.toml's {@code [schedules.<name>]} (docs/spring-boot.md, "Schedules"). When it is due:
 * {@code cron} (with {@code zone}) or {@code every}; what it produces: a message ({@code queue},
 * {@code type}, ...) or a workflow start ({@code workflow}, {@code input}, {@code version}). {@link
 * ScheduleDeclarations} checks and declares it.
 */
public class ScheduleProperties {
  /** A cron expression: 5 fields, or 6 with seconds first; give cron or every. */
  private String cron;

  /** The time zone the cron is read in (default UTC); only with cron. */
  private String zone;

  /** A fixed interval, at least 1s, counted from the schedule's creation; give cron or every. */
  private Duration every;

  /** A message target: the queue the message goes to (it must exist or be declared). */
  private String queue;

  /** A message target: the message's type (its handler's name). */
  private String type;

  /** A message target: the message's payload (default: empty). */
  private String payload;

  /** A message target: the message's headers. */
  private Map<String, String> headers = new LinkedHashMap<>();

  /** A message target: the message's stream (ordering key). */
  private String stream;

  /** A message target: the message's deadline after it is produced (default: the queue's). */
  private Duration expireAfter;

  /** A workflow target: the orchestration started at each due time. */
  private String workflow;

  /** A workflow target: the orchestration's input, as JSON text. */
  private String input;

  /** A workflow target: the orchestration version started (default: the runtime's). */
  private String version;

  /** Each due time's message (or start) is put off by up to this, at most 1d (default 0s). */
  private Duration jitter;

  /** Due times missed while no node ran: once (the latest), skip, or all:N (default once). */
  private String catchUp;

  /**
   * Whether the schedule is created paused; a schedule that exists keeps its paused flag (an
   * operator's pause or resume survives restarts).
   */
  private boolean paused;

  public String getCron() {
    return cron;
  }

  public void setCron(String cron) {
    this.cron = cron;
  }

  public String getZone() {
    return zone;
  }

  public void setZone(String zone) {
    this.zone = zone;
  }

  public Duration getEvery() {
    return every;
  }

  public void setEvery(Duration every) {
    this.every = every;
  }

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

  public String getPayload() {
    return payload;
  }

  public void setPayload(String payload) {
    this.payload = payload;
  }

  public Map<String, String> getHeaders() {
    return headers;
  }

  public void setHeaders(Map<String, String> headers) {
    this.headers = headers;
  }

  public String getStream() {
    return stream;
  }

  public void setStream(String stream) {
    this.stream = stream;
  }

  public Duration getExpireAfter() {
    return expireAfter;
  }

  public void setExpireAfter(Duration expireAfter) {
    this.expireAfter = expireAfter;
  }

  public String getWorkflow() {
    return workflow;
  }

  public void setWorkflow(String workflow) {
    this.workflow = workflow;
  }

  public String getInput() {
    return input;
  }

  public void setInput(String input) {
    this.input = input;
  }

  public String getVersion() {
    return version;
  }

  public void setVersion(String version) {
    this.version = version;
  }

  public Duration getJitter() {
    return jitter;
  }

  public void setJitter(Duration jitter) {
    this.jitter = jitter;
  }

  public String getCatchUp() {
    return catchUp;
  }

  public void setCatchUp(String catchUp) {
    this.catchUp = catchUp;
  }

  public boolean isPaused() {
    return paused;
  }

  public void setPaused(boolean paused) {
    this.paused = paused;
  }
}
