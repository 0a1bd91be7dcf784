package io.redrive.objective;

import java.time.Duration;
import java.time.Instant;

/**
 * How an objective stands at {@code at}, computed by {@link Compliance} from the per-minute counts
 * of its window.
 *
 * @param objective the objective
 * @param at when this was computed (the engine's clock)
 * @param within events within the bound over the window
 * @param beyond events beyond the bound over the window
 * @param compliance {@code within / (within + beyond)} over the window, or null when nothing was
 *     measured
 * @param breached true when {@code compliance < target}
 * @param burnRateShort the share of bad events over the last {@link Compliance#SHORT} divided by
 *     the error budget: 1 spends the budget exactly over the window, above 1 faster; 0 when nothing
 *     was measured
 * @param burnRateLong the same over the last {@link Compliance#LONG}
 * @param budgetRemaining the share of the error budget left over the window: 1 untouched, 0 spent,
 *     below 0 overspent
 * @param exhaustion how long until the budget is spent at the short burn rate; zero when it is
 *     spent, null when nothing burns
 */
public record ObjectiveStatus(
    Objective objective,
    Instant at,
    long within,
    long beyond,
    Double compliance,
    boolean breached,
    double burnRateShort,
    double burnRateLong,
    double budgetRemaining,
    Duration exhaustion) {}
