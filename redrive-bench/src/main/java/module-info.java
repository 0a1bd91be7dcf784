/**
 * The benchmark. Exports nothing: it is an application. Its command is open to picocli, which sets
 * its options by reflection.
 */
module io.redrive.bench {
  requires io.redrive.sqlite;
  requires io.redrive.postgres;
  requires io.redrive.workflow;
  requires ch.qos.logback.classic;
  requires com.fasterxml.jackson.databind;
  requires embedded.postgres;
  requires info.picocli;
  // DBOS Transact (issue 34's workflow peer) has no module name of its own: the automatic one
  requires transact;
  // db-scheduler (issue 28's queue peer), by its manifest's automatic module name
  requires com.github.kagkarlsson.scheduler;
  requires com.zaxxer.hikari;
  requires org.xerial.sqlitejdbc;

  opens io.redrive.bench to
      info.picocli;
}
