package io.redrive.test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The kit is a user of Redrive's public API, and PostgreSQL stays optional: only {@link
 * PostgresTestStores} names {@code redrive-postgres}, so a SQLite-only application never loads it.
 */
@AnalyzeClasses(packages = "io.redrive.test", importOptions = ImportOption.DoNotIncludeTests.class)
class KitDependencyRulesTest {

  @ArchTest
  static final ArchRule usesThePublicApiOnly =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.test..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.redrive.jdbc..",
              "io.redrive.engine..",
              "io.redrive.internal..",
              "io.redrive.testkit..")
          .because("applications' tests must see the engine they run in production");

  @ArchTest
  static final ArchRule onlyOneClassNamesPostgres =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.test..")
          .and()
          .doNotHaveSimpleName("PostgresTestStores")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.redrive.postgres..")
          .because("redrive-postgres is an optional dependency of the kit");
}
