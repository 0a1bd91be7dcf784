package io.redrive.bench.violation;

/** Stands in for a benchmark class, which this module cannot see, to break a rule on purpose. */
public final class BenchStandIn {}
