/**
 * Redrive's engine: the {@link io.redrive.Redrive} facade, the domain types, the worker runtime and
 * the store SPI ({@link io.redrive.store.Store}).
 *
 * <p>Exported: what applications and store implementations use. Internal: {@code io.redrive.engine}
 * (the delivery rules the JDBC layer applies inside its transactions), {@code io.redrive.time}
 * (duration text shared by the server, CLI and benchmark) and {@code io.redrive.internal.workflow}
 * (the workflow runtime's one door to the engine's store, as {@code Redrive} hands its store to no
 * one), each exported only to the modules that need it.
 */
// "module": the qualified exports name modules built after this one.
@SuppressWarnings("module")
module io.redrive {
  requires transitive java.sql;
  requires transitive micrometer.core;
  requires org.slf4j;
  requires com.cronutils;

  exports io.redrive;
  exports io.redrive.deadletter;
  exports io.redrive.error;
  exports io.redrive.failure;
  exports io.redrive.lease;
  exports io.redrive.maintenance;
  exports io.redrive.message;
  exports io.redrive.objective;
  exports io.redrive.queue;
  exports io.redrive.retry;
  exports io.redrive.schedule;
  exports io.redrive.store;
  // Exported to all like io.redrive.store: the public stores (SqliteStore, PostgresStore)
  // implement WorkflowStore, so an application building Redrive from one must see the type. Who may
  // use it is ModuleBoundaryRulesTest's to say (stores, testkits, the workflow module).
  exports io.redrive.store.workflow;
  exports io.redrive.trace;
  exports io.redrive.whatif;
  exports io.redrive.worker;
  exports io.redrive.engine to
      io.redrive.jdbc,
      io.redrive.testkit,
      io.redrive.workflow;
  exports io.redrive.internal.workflow to
      io.redrive.workflow;
  exports io.redrive.time to
      io.redrive.server,
      io.redrive.cli,
      io.redrive.bench,
      io.redrive.testkit;
}
