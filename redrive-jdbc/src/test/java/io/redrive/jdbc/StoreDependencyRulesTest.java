package io.redrive.jdbc;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The shared JDBC layer knows no particular database: dialects belong to the store modules. */
@AnalyzeClasses(packages = "io.redrive.jdbc", importOptions = ImportOption.DoNotIncludeTests.class)
class StoreDependencyRulesTest {

  @ArchTest
  static final ArchRule jdbcLayerImportsNoVendorDriver =
      noClasses()
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.sqlite..", "org.postgresql..", "io.redrive.sqlite..", "io.redrive.postgres..")
          .because("vendor specifics live in SqlDialect implementations of the store modules");
}
