package io.redrive.workflow.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The explorer is a user of the workflow module, like the tests it serves: it injects failures at
 * the store's boundary and in the registry it hands the runtime, never inside the runtime.
 */
@AnalyzeClasses(
    packages = "io.redrive.workflow.testkit",
    importOptions = ImportOption.DoNotIncludeTests.class)
class TestkitDependencyRulesTest {

  @ArchTest
  static final ArchRule usesThePublicWorkflowApiOnly =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.workflow.testkit..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.redrive.workflow.replay..",
              "io.redrive.workflow.runtime..",
              "io.redrive.jdbc..",
              "io.redrive.engine..")
          .because("the explorer runs the real runtime as a user would, on the store interface");
}
