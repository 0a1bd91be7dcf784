package io.redrive.store;

import java.util.List;

/** Input of {@link Store#failAllIfLeased}: one {@link FailParams} per lease. */
public record FailAllParams(List<FailParams> failures) {}
