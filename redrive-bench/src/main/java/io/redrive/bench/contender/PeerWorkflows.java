package io.redrive.bench.contender;

/**
 * The benchmark's workflows as DBOS Transact runs them, the same shapes as {@code WorkflowBench}'s
 * orchestrations: DBOS calls workflows through a proxy of an interface, hence this one. Each method
 * is a workflow; every unit of work inside is a step.
 */
public interface PeerWorkflows {

  /** Three no-op steps one after another; returns {@code n + 3}. */
  int sequential(int n);

  /** {@code n} child workflows ({@link #part}) started at once, then each awaited; their sum. */
  int fanOut(int n);

  /** One child of a fan-out: a single no-op step; returns {@code i + 1}. */
  int part(int i);
}
