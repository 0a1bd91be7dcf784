package io.redrive.spring.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * One starter serves Spring Boot 3.5 and 4.0 (docs/design-decisions.md §23): it may use by class
 * only what both lines keep in place. The packages Boot 4 moved or split are reached by name
 * (auto-configuration ordering) or through one small class per line (the health indicators).
 */
@AnalyzeClasses(
    packages = "io.redrive.spring",
    importOptions = ImportOption.DoNotIncludeTests.class)
class BootLinesRulesTest {

  @ArchTest
  static final ArchRule movedAutoConfigurationsOnlyByName =
      noClasses()
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.springframework.boot.autoconfigure.jdbc..",
              "org.springframework.boot.autoconfigure.orm..",
              "org.springframework.boot.autoconfigure.transaction..",
              "org.springframework.boot.autoconfigure.flyway..",
              "org.springframework.boot.jdbc.autoconfigure..")
          .because("Boot 4 moved these auto-configurations: name them by string");

  @ArchTest
  static final ArchRule boot3HealthOnlyInItsIndicator =
      noClasses()
          .that()
          .doNotHaveSimpleName("RedriveHealthIndicator")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.springframework.boot.actuate.health..")
          .because("Boot 4 has no org.springframework.boot.actuate.health");

  @ArchTest
  static final ArchRule boot4HealthOnlyInItsIndicator =
      noClasses()
          .that()
          .doNotHaveSimpleName("RedriveBoot4HealthIndicator")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.springframework.boot.health..")
          .because("Boot 3.5 has no org.springframework.boot.health");
}
