package io.redrive.server.ui;

import java.time.Instant;

/**
 * An operator action's progress and result, as its page shows it.
 *
 * @param id the job's id
 * @param op {@code retry}, {@code redrive} or {@code drop}
 * @param queue the queue acted on
 * @param fingerprint the group's key, or null for one message
 * @param messageId the message's id, or null for a group
 * @param expected how many messages the confirmed dry run counted
 * @param done how many were retried, moved or dropped so far
 * @param skipped how many could not be (no longer dead, no source queue)
 * @param status {@code running}, {@code done} or {@code failed}
 * @param error what went wrong, for {@code failed}
 * @param startedAt when it started
 * @param finishedAt when it ended, or null while running
 */
public record JobView(
    String id,
    String op,
    String queue,
    String fingerprint,
    String messageId,
    long expected,
    long done,
    long skipped,
    String status,
    String error,
    Instant startedAt,
    Instant finishedAt) {

  /** True while the job runs. */
  public boolean running() {
    return status.equals("running");
  }

  /** The past tense of the action: {@code retried}, {@code redriven}, {@code dropped}. */
  public String pastTense() {
    return switch (op) {
      case "retry" -> "retried";
      case "redrive" -> "redriven";
      case "drop" -> "dropped";
      default -> op;
    };
  }
}
