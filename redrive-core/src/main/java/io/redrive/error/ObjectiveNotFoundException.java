package io.redrive.error;

/** The named objective does not exist. */
public final class ObjectiveNotFoundException extends NotFoundException {
  private final String objective;

  public ObjectiveNotFoundException(String objective) {
    super("OBJECTIVE_NOT_FOUND", "objective \"" + objective + "\" does not exist");
    this.objective = objective;
  }

  public String objective() {
    return objective;
  }
}
