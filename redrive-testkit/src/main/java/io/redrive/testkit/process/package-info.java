/**
 * Multi-process scenarios of the worker runtime, where a crash is the point: workers run in child
 * JVMs ({@link io.redrive.testkit.process.WorkerProcess}) on the same database as the test, and the
 * test kills them with SIGKILL, lets their handlers halt the JVM, or stops and restarts them.
 *
 * <p>{@link io.redrive.testkit.process.ChildWorker} starts and watches one child; {@link
 * io.redrive.testkit.process.ProcessScenarioBase} gives each test a fresh database, the engine and
 * clean-up of every child and worker. A store module runs a scenario by subclassing it and naming
 * its {@link io.redrive.testkit.StoreFixture}; the fixture's databases must have an {@link
 * io.redrive.testkit.TestDatabase#address() address}.
 */
package io.redrive.testkit.process;
