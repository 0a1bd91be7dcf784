package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link Store#setCircuit}: open ({@code open} true) or close the circuit of {@code
 * dependency} in {@code queue} by hand at {@code now}.
 */
public record CircuitParams(String queue, String dependency, boolean open, Instant now) {}
