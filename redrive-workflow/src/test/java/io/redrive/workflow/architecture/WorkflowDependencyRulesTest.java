package io.redrive.workflow.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The workflow module's place in the design (docs/workflows.md): it runs on the store interface of
 * core and knows no store, server or CLI; its engine ({@code replay}) and runtime internals ({@code
 * runtime}) serve its own API only. The module descriptor says the same at compile time; these
 * rules hold on the class path tests and shaded jars run on.
 */
@AnalyzeClasses(packages = "io.redrive", importOptions = ImportOption.DoNotIncludeTests.class)
class WorkflowDependencyRulesTest {

  @ArchTest
  static final ArchRule workflowsKnowNoStoreServerOrCli =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.workflow..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.redrive.jdbc..",
              "io.redrive.sqlite..",
              "io.redrive.postgres..",
              "io.redrive.server..",
              "io.redrive.cli..",
              "io.redrive.testkit..",
              "io.redrive.engine..")
          .because("the workflow runtime runs on core's store interface (WorkflowStore) only");

  @ArchTest
  static final ArchRule internalsServeTheWorkflowModuleOnly =
      classes()
          .that()
          .resideInAnyPackage("io.redrive.workflow.replay..", "io.redrive.workflow.runtime..")
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAPackage("io.redrive.workflow..")
          .because("the replay engine and runtime internals are not exported by the module");

  @ArchTest
  static final ArchRule replayEngineKnowsNoStoreCalls =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.workflow.replay..")
          .should()
          .dependOnClassesThat()
          .haveSimpleName("WorkflowStore")
          .because("replay is pure: it reads a history and decides, the runtime does the I/O");
}
