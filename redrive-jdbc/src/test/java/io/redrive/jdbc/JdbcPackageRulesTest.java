package io.redrive.jdbc;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.redrive.jdbc.owned.violation.SeamReachingOut;
import io.redrive.jdbc.violation.QueueReachingIntoWorkflows;
import io.redrive.jdbc.workflow.Workflows;
import io.redrive.jdbc.workflow.violation.WorkflowStandIn;
import io.redrive.jdbc.workflow.violation.WorkflowsReachingIntoQueues;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The queue statements ({@code io.redrive.jdbc}) and the workflow statements ({@code
 * io.redrive.jdbc.workflow}) meet only at the seam ({@code io.redrive.jdbc.owned}): the queue
 * statements tell a queue's {@code QueueEndings} of the ends of its messages and never name a
 * workflow class, except the store's facade ({@code JdbcStore}, its workflow half {@code
 * JdbcWorkflowStore} and {@code StoreParts}, which wires them) delegating its {@code WorkflowStore}
 * calls to {@link Workflows}; the workflow statements use the queues only through {@code
 * OwnedQueues} and the dialect.
 */
@AnalyzeClasses(packages = "io.redrive.jdbc", importOptions = ImportOption.DoNotIncludeTests.class)
class JdbcPackageRulesTest {

  @ArchTest
  static final ArchRule queuesReachWorkflowsOnlyThroughTheirFacade =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.jdbc..")
          .and()
          .resideOutsideOfPackages("io.redrive.jdbc.workflow..", "io.redrive.jdbc.owned..")
          .should()
          .dependOnClassesThat(
              resideInAPackage("io.redrive.jdbc.workflow..")
                  .and(not(equivalentTo(Workflows.class))))
          .because(
              "the queue statements meet workflow-owned queues through QueueEndings"
                  + " (io.redrive.jdbc.owned); only the store's facade (JdbcStore, JdbcWorkflowStore,"
                  + " StoreParts) names the workflow side");

  @ArchTest
  static final ArchRule workflowsReachQueuesOnlyThroughTheSeamAndTheDialect =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.jdbc.workflow..")
          .should()
          .dependOnClassesThat(
              resideInAPackage("io.redrive.jdbc").and(not(equivalentTo(SqlDialect.class))))
          .because(
              "the workflow statements use the queues only through OwnedQueues"
                  + " (io.redrive.jdbc.owned) and write their SQL with the dialect's fragments");

  @ArchTest
  static final ArchRule theSeamKnowsNeitherSide =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.jdbc.owned..")
          .should()
          .dependOnClassesThat(resideInAnyPackage("io.redrive.jdbc", "io.redrive.jdbc.workflow.."))
          .because("both sides depend on the seam, never the other way");

  /**
   * Every rule above can fail: each one, run over the test-only classes that break it on purpose
   * ({@code io.redrive.jdbc..violation}, outside what the rules analyze), reports that class.
   */
  @Test
  void everyRule_onAClassBreakingIt_reportsThatClass() {
    JavaClasses breaking =
        new ClassFileImporter()
            .importClasses(
                QueueReachingIntoWorkflows.class,
                WorkflowsReachingIntoQueues.class,
                SeamReachingOut.class,
                WorkflowStandIn.class);
    Map<ArchRule, Class<?>> caughtBy =
        Map.of(
            queuesReachWorkflowsOnlyThroughTheirFacade, QueueReachingIntoWorkflows.class,
            workflowsReachQueuesOnlyThroughTheSeamAndTheDialect, WorkflowsReachingIntoQueues.class,
            theSeamKnowsNeitherSide, SeamReachingOut.class);
    caughtBy.forEach(
        (rule, breaker) -> {
          EvaluationResult result = rule.evaluate(breaking);
          assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
          assertThat(result.getFailureReport().getDetails())
              .as(rule.getDescription())
              .anyMatch(line -> line.contains(breaker.getName()));
        });
  }
}
