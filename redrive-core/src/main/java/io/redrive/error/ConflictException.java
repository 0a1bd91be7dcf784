package io.redrive.error;

/** The request is well formed but conflicts with the current state; nothing was changed. */
public class ConflictException extends RedriveException {
  /** A queue of that name exists already. */
  public static final String QUEUE_EXISTS = "QUEUE_EXISTS";

  /** The queue is another queue's dead-letter queue, so it cannot be deleted. */
  public static final String QUEUE_IN_USE = "QUEUE_IN_USE";

  /** An id prefix matches several messages. */
  public static final String AMBIGUOUS_ID = "AMBIGUOUS_ID";

  /** Only dead messages can be retried. */
  public static final String NOT_DEAD = "NOT_DEAD";

  /** Only scheduled messages can be made visible now. */
  public static final String NOT_SCHEDULED = "NOT_SCHEDULED";

  /** The lease token is no longer its message's current lease ({@link LeaseLostException}). */
  public static final String LEASE_LOST = "LEASE_LOST";

  /** The workflow instance has ended (completed, failed or terminated). */
  public static final String INSTANCE_NOT_RUNNING = "INSTANCE_NOT_RUNNING";

  /** The workflow instance is a child; the action is for the root of its tree. */
  public static final String NOT_ROOT = "NOT_ROOT";

  /** An instance of the workflow tree has not ended, and the action was not forced. */
  public static final String TREE_RUNNING = "TREE_RUNNING";

  /** The workflow instance has not failed, so there is nothing to retry. */
  public static final String NOT_FAILED = "NOT_FAILED";

  public ConflictException(String code, String message) {
    super(code, message);
  }
}
