/**
 * The store compliance suite, worker scenarios and test fixtures. Open, because JUnit reflects on
 * the contracts' package-private tests from the store modules that subclass them.
 */
@SuppressWarnings("requires-transitive-automatic")
open module io.redrive.testkit {
  requires transitive io.redrive;
  requires transitive org.assertj.core;
  requires transitive org.junit.jupiter.api;
  requires transitive org.junit.jupiter.params;
  requires awaitility;
  requires embedded.postgres;
  requires flyway.core;
  requires java.logging;
  requires org.postgresql.jdbc;

  exports io.redrive.testkit;
  exports io.redrive.testkit.compliance;
  exports io.redrive.testkit.fault;
  exports io.redrive.testkit.migration;
  exports io.redrive.testkit.process;
  exports io.redrive.testkit.worker;
}
