package io.redrive.server.ui;

import io.redrive.message.Message;
import java.util.List;

/**
 * The message page's model.
 *
 * @param message the message with its history
 * @param payload the payload pretty-printed when it is JSON, else as stored
 * @param payloadIsJson true when {@code payload} was parsed and pretty-printed
 * @param timeline its story, oldest first
 * @param mayAct true when the viewer may retry, redrive or drop it
 */
public record MessageView(
    Message message,
    String payload,
    boolean payloadIsJson,
    List<TimelineRow> timeline,
    boolean mayAct) {

  /** True when the message can be retried in place (it is dead). */
  public boolean retryable() {
    return message.state() == io.redrive.message.MessageState.DEAD;
  }

  /**
   * The workflow instance an activity message works for (its {@code wf-instance} header, which the
   * workflow runtime sets on every activity message, docs/workflows.md), or null.
   */
  public String workflowInstance() {
    String id = message.headers().get("wf-instance");
    return id == null || id.isBlank() ? null : id;
  }

  /** True when it is a dead copy in a dead-letter queue, which a redrive moves back. */
  public boolean redrivable() {
    return retryable() && message.sourceQueue() != null;
  }
}
