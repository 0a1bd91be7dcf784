package io.redrive.error;

/** A workflow instance with that id exists already and the start asked to fail then. */
public final class InstanceExistsException extends ConflictException {
  /** The code of this failure. */
  public static final String CODE = "INSTANCE_EXISTS";

  public InstanceExistsException(String instanceId) {
    super(CODE, "workflow instance \"" + instanceId + "\" exists already");
  }
}
