package io.redrive.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The dependency direction of ARCHITECTURE.md, checked on every build. */
@AnalyzeClasses(packages = "io.redrive", importOptions = ImportOption.DoNotIncludeTests.class)
class DependencyRulesTest {

  @ArchTest
  static final ArchRule coreImportsNoStoreServerOrCli =
      noClasses()
          .that()
          .resideInAPackage("io.redrive..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.redrive.jdbc..",
              "io.redrive.sqlite..",
              "io.redrive.postgres..",
              "io.redrive.server..",
              "io.redrive.cli..")
          .because("core depends on no store, server or CLI module");

  @ArchTest
  static final ArchRule coreImportsNoDriverPoolOrHttp =
      noClasses()
          .that()
          .resideInAPackage("io.redrive..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.sqlite..",
              "org.postgresql..",
              "com.zaxxer..",
              "org.flywaydb..",
              "io.javalin..",
              "java.net.http..",
              "jakarta.servlet..",
              "com.fasterxml.jackson..")
          .because("core imports no JDBC driver, pool, migration tool, JSON or HTTP library");

  @ArchTest
  static final ArchRule onlyStoreContractAndFacadeTouchJdbc =
      noClasses()
          .that()
          .resideInAPackage("io.redrive..")
          .and()
          .resideOutsideOfPackages(
              "io.redrive",
              "io.redrive.store",
              "io.redrive.store.workflow",
              "io.redrive.internal.workflow")
          .should()
          .dependOnClassesThat()
          .belongToAnyOf(
              java.sql.Connection.class,
              java.sql.Statement.class,
              java.sql.PreparedStatement.class,
              java.sql.ResultSet.class,
              java.sql.DriverManager.class,
              javax.sql.DataSource.class)
          .because(
              "only transactional enqueue takes a java.sql.Connection, and the workflow door"
                  + " lends a workflow start the same join of the caller's transaction (the worker"
                  + " may name SQL exception types to classify failures)");

  @ArchTest
  static final ArchRule domainDoesNotDependOnStoreContract =
      noClasses()
          .that()
          .resideInAnyPackage(
              "io.redrive.queue..",
              "io.redrive.message..",
              "io.redrive.failure..",
              "io.redrive.retry..",
              "io.redrive.lease..",
              "io.redrive.deadletter..",
              "io.redrive.time..",
              "io.redrive.error..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.redrive.store..", "io.redrive.engine..")
          .because("the domain is the vocabulary; the store contract and rules build on it");
}
