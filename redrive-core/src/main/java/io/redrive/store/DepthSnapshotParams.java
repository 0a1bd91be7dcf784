package io.redrive.store;

import java.time.Instant;

/** Input of {@link Store#recordDepth}: the depth of every queue at {@code now}, for its minute. */
public record DepthSnapshotParams(Instant now) {}
