/**
 * The benchmark scenarios (enqueue, drain, failure path, streams, depth, steady state). Each
 * scenario is a list of {@link io.redrive.bench.scenario.Cell}s; a cell measures Redrive and its
 * baseline on fresh databases, one repetition at a time, and reports the correctness checks it
 * made.
 */
package io.redrive.bench.scenario;
