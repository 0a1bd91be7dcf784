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
 * @param lineage every id of its story the viewer may see, oldest first (one link for a message
 *     never moved)
 * @param movedFrom the id the viewer asked for when it led here (a moved message), else null
 */
public record MessageView(
    Message message,
    String payload,
    boolean payloadIsJson,
    List<TimelineRow> timeline,
    boolean mayAct,
    List<io.redrive.message.Lineage.Link> lineage,
    String movedFrom) {

  /**
   * The attempts it had used in its source queue when it was moved here, or null when it was not
   * moved (or the move left no record). A copy starts at 0 attempts in the dead-letter queue, so
   * without this its page would hide that it failed there again and again.
   */
  public Integer sourceAttempts() {
    return message.sourceAttempts();
  }

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

  /**
   * The trace id of the trace it was enqueued in (its {@code traceparent} header, docs/tracing.md),
   * or null when it carries none or a malformed one.
   */
  public String traceId() {
    return io.redrive.trace.TraceParent.traceIdOf(message.headers()).orElse(null);
  }

  /**
   * True when it is a dead copy moved from another queue, which a redrive moves back (a redriven
   * message keeps its own queue as its source: nowhere else to go).
   */
  public boolean redrivable() {
    return retryable()
        && message.sourceQueue() != null
        && !message.sourceQueue().equals(message.queue());
  }
}
