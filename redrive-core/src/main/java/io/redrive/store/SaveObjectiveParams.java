package io.redrive.store;

import io.redrive.objective.Objective;
import java.time.Instant;

/** Input of {@link ObjectiveStore#saveObjective}: a validated objective and the engine's clock. */
public record SaveObjectiveParams(Objective objective, Instant now) {}
