/**
 * In-process worker scenarios: one abstract {@code *Scenarios} class per concern, each running real
 * {@link io.redrive.worker.Worker}s with the real system clock against a real store (outcomes,
 * classification, maintenance, hangs, heartbeats, unregistered types, mixed load, shutdown,
 * streams, partial completion, metrics, builder validation). A store module runs them by
 * subclassing every scenario class with a class that only names its {@link
 * io.redrive.testkit.StoreFixture}, and checks its coverage against {@link
 * io.redrive.testkit.worker.WorkerScenarios#all()}.
 */
package io.redrive.testkit.worker;
