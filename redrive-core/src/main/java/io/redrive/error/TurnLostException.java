package io.redrive.error;

/**
 * The turn token is no longer the instance's current turn lease: another node leased the instance
 * after this lease ran out, or the turn was already committed or abandoned. Nothing was changed.
 */
public final class TurnLostException extends ConflictException {
  public TurnLostException(String instanceId) {
    super(
        LEASE_LOST,
        "turn lost: workflow instance \""
            + instanceId
            + "\" is no longer held by this turn token (leased again, committed or abandoned)");
  }
}
