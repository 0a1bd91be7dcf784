package io.redrive.workflow.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.redrive.store.ReadySubscription;
import io.redrive.store.Store;
import io.redrive.workflow.replay.violation.DeciderReadingTheWallClock;
import io.redrive.workflow.violation.ApiShowingStoreRows;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The workflow module's place in the design (docs/workflows.md): it runs on the store interface of
 * core and knows no store, server or CLI; its engine ({@code replay}) and runtime internals ({@code
 * runtime}) serve its own API only, and its API speaks its own types, never the store's rows. The
 * module descriptor says the same at compile time; these rules hold on the class path tests and
 * shaded jars run on. Each rule added since the one-door change is shown to fail on a test-only
 * class that breaks it ({@code io.redrive.workflow.violation}).
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
              "io.redrive.testkit..")
          .because("the workflow runtime runs on core's store interface (WorkflowStore) only");

  @ArchTest
  static final ArchRule internalsServeTheWorkflowModuleOnly =
      classes()
          .that()
          .resideInAnyPackage(
              "io.redrive.workflow.history..",
              "io.redrive.workflow.replay..",
              "io.redrive.workflow.runtime..")
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAPackage("io.redrive.workflow..")
          .because(
              "the typed history, the replay engine and the runtime are not exported by the"
                  + " module");

  @ArchTest
  static final ArchRule replayEngineKnowsNoStoreCalls =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.workflow.replay..")
          .should()
          .dependOnClassesThat()
          .haveSimpleName("WorkflowStore")
          .because("replay is pure: it reads a history and decides, the runtime does the I/O");

  /**
   * The runtime's classes that decide a turn without doing it: the decider and what it uses. The
   * committer, the poller and the activity handler do the I/O and are not in this list.
   */
  static final Set<String> DECIDER =
      Set.of(
          "TurnDecider",
          "TurnExecution",
          "TurnBatch",
          "InboxEvents",
          "TurnOpening",
          "TurnEnding",
          "TurnEffects",
          "Poisoning",
          "Termination",
          "TurnDraft",
          "Decision",
          "Observation");

  @ArchTest
  static final ArchRule decidingIsPure =
      noClasses()
          .that(decidingClasses())
          .should(reachAStoreOrTheWallClock())
          .because(
              "the typed history, the replay engine and the turn decider are pure: they reach no"
                  + " store and read no clock but the one they are given, so a turn can be decided"
                  + " (and unit-tested) without a database, the same on every node");

  @Test
  void decidingIsPure_onAReplayClassReadingTheWallClockAndHoldingAStore_reportsBoth() {
    EvaluationResult result =
        decidingIsPure.evaluate(
            new ClassFileImporter().importClasses(DeciderReadingTheWallClock.class));

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anyMatch(line -> line.contains("Instant.now()"))
        .anyMatch(line -> line.contains("WorkflowStore"));
  }

  private static DescribedPredicate<JavaClass> decidingClasses() {
    return DescribedPredicate.describe(
        "decide turns (history, replay, the runtime's decider)",
        c -> {
          String pkg = c.getPackageName();
          String top = c.getName().replaceAll("\\$.*", "");
          String simple = top.substring(top.lastIndexOf('.') + 1);
          return pkg.startsWith("io.redrive.workflow.history")
              || pkg.startsWith("io.redrive.workflow.replay")
              || (pkg.equals("io.redrive.workflow.runtime") && DECIDER.contains(simple));
        });
  }

  /** Depends on a store or the engine facade, or reads the wall clock (now(), system clocks). */
  private static ArchCondition<JavaClass> reachAStoreOrTheWallClock() {
    return new ArchCondition<>("reach a store or the wall clock") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        for (var d : c.getDirectDependenciesFromSelf()) {
          String target = d.getTargetClass().getName();
          if (target.equals("io.redrive.store.workflow.WorkflowStore")
              || target.equals("io.redrive.store.Store")
              || target.equals("io.redrive.Redrive")) {
            events.add(SimpleConditionEvent.satisfied(c, d.getDescription()));
          }
        }
        for (var call : c.getMethodCallsFromSelf()) {
          String owner = call.getTargetOwner().getName();
          String name = call.getName();
          boolean wallClock =
              (name.equals("now")
                      && (owner.startsWith("java.time.") || owner.equals("java.time.Instant")))
                  || (owner.equals("java.time.Clock")
                      && (name.equals("systemUTC") || name.equals("systemDefaultZone")))
                  || (owner.equals("java.lang.System")
                      && (name.equals("currentTimeMillis") || name.equals("nanoTime")));
          if (wallClock) {
            events.add(SimpleConditionEvent.satisfied(c, call.getDescription()));
          }
        }
      }
    };
  }

  @ArchTest
  static final ArchRule apiShowsNoStoreTypes =
      classes()
          .that()
          .resideInAPackage("io.redrive.workflow..")
          .and()
          .resideOutsideOfPackages(
              "io.redrive.workflow.history..",
              "io.redrive.workflow.replay..",
              "io.redrive.workflow.runtime..")
          .and()
          .arePublic()
          .should(showNoStoreTypeInAPublicSignature())
          .because(
              "WorkflowClient, InstanceReader and the replayer speak InstanceInfo, InstanceQuery,"
                  + " WorkflowEvent and the other records of io.redrive.workflow; store rows stay"
                  + " behind StoreRows");

  @Test
  void apiShowsNoStoreTypes_onAClassShowingAStoreRow_reportsThatClass() {
    EvaluationResult result =
        apiShowsNoStoreTypes.evaluate(
            new ClassFileImporter().importClasses(ApiShowingStoreRows.class));

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anyMatch(
            line ->
                line.contains(ApiShowingStoreRows.class.getName())
                    && line.contains("io.redrive.store.workflow.HistoryRow"));
  }

  /**
   * No public method, constructor or field names an {@code io.redrive.store} type in its return,
   * parameter or field type (type arguments included), except core's own handles {@link Store} and
   * {@link ReadySubscription}, which Redrive's public API already hands to applications.
   */
  private static ArchCondition<JavaClass> showNoStoreTypeInAPublicSignature() {
    return new ArchCondition<>("show no io.redrive.store type in a public signature") {
      @Override
      public void check(JavaClass owner, ConditionEvents events) {
        for (JavaMember member : owner.getMembers()) {
          if (!member.getModifiers().contains(JavaModifier.PUBLIC)) {
            continue;
          }
          List<JavaType> types = new ArrayList<>();
          if (member instanceof JavaCodeUnit unit) {
            types.add(unit.getReturnType());
            types.addAll(unit.getParameterTypes());
          } else if (member instanceof JavaField field) {
            types.add(field.getType());
          }
          Set<JavaClass> involved = new LinkedHashSet<>();
          types.forEach(t -> involved.addAll(t.getAllInvolvedRawTypes()));
          for (JavaClass type : involved) {
            if (type.getPackageName().startsWith("io.redrive.store")
                && !type.isEquivalentTo(Store.class)
                && !type.isEquivalentTo(ReadySubscription.class)) {
              events.add(
                  SimpleConditionEvent.violated(
                      member, member.getFullName() + " shows store type " + type.getName()));
            }
          }
        }
      }
    };
  }
}
