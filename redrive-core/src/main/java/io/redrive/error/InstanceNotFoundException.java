package io.redrive.error;

/** No workflow instance has that id (never started, or deleted). */
public final class InstanceNotFoundException extends NotFoundException {
  /** The code of this failure. */
  public static final String CODE = "INSTANCE_NOT_FOUND";

  public InstanceNotFoundException(String instanceId) {
    super(CODE, "workflow instance \"" + instanceId + "\" does not exist");
  }
}
