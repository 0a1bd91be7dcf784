package io.redrive.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The server's packages depend one way: config and http build on auth, never the reverse. */
@AnalyzeClasses(
    packages = "io.redrive.server",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ServerPackageRulesTest {

  @ArchTest
  static final ArchRule authKnowsNoConfig =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.server.auth..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.redrive.server.config..", "io.redrive.server.http..")
          .because("keys and roles are the config's and the http layer's input, not their user");
}
