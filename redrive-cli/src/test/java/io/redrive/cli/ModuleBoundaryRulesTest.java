package io.redrive.cli;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.redrive.bench.violation.BenchStandIn;
import io.redrive.cli.violation.CliReachingOut;
import io.redrive.engine.DeliveryRules;
import io.redrive.internal.workflow.WorkflowStores;
import io.redrive.jdbc.violation.JdbcReachingOut;
import io.redrive.jdbc.workflow.Workflows;
import io.redrive.postgres.violation.PostgresReachingOut;
import io.redrive.queue.violation.CoreHandingOutItsStore;
import io.redrive.queue.violation.CoreReachingOut;
import io.redrive.server.http.HttpApi;
import io.redrive.server.violation.ServerReachingOut;
import io.redrive.server.violation.ServerReadingTheStore;
import io.redrive.server.violation.ServerTracingByHand;
import io.redrive.sqlite.violation.SqliteReachingOut;
import io.redrive.store.ReadySubscription;
import io.redrive.store.Store;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.time.DurationText;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What must never be, across modules: checked here because this module's test class path holds the
 * main classes of core, the JDBC layer, both stores, the testkit, the server and the CLI. The
 * module descriptors (module-info.java) say the same for main code at compile time; these rules
 * also hold where the descriptors are not in force (the class path the tests and shaded jars run
 * on).
 *
 * <p>Each module's internal (non-exported or only qualified-exported) packages:
 *
 * <ul>
 *   <li>core: {@code io.redrive.engine} (to the JDBC layer, testkit and workflow runtime), {@code
 *       io.redrive.time} (to the server, CLI, benchmark and testkit), {@code
 *       io.redrive.internal.workflow} (to the workflow module: its one door to the engine's store)
 *   <li>JDBC layer: {@code io.redrive.jdbc.workflow}, {@code io.redrive.jdbc.owned}
 *   <li>server: {@code io.redrive.server.http}
 *   <li>CLI: every package ({@code io.redrive.cli..}); benchmark: every package ({@code
 *       io.redrive.bench..})
 * </ul>
 */
@AnalyzeClasses(packages = "io.redrive", importOptions = ImportOption.DoNotIncludeTests.class)
class ModuleBoundaryRulesTest {

  /** The packages of redrive-core (its root package has classes of its own, hence two lists). */
  private static final String[] CORE_SUBPACKAGES = {
    "io.redrive.deadletter..",
    "io.redrive.engine..",
    "io.redrive.error..",
    "io.redrive.failure..",
    "io.redrive.internal..",
    "io.redrive.lease..",
    "io.redrive.maintenance..",
    "io.redrive.message..",
    "io.redrive.queue..",
    "io.redrive.retry..",
    "io.redrive.schedule..",
    "io.redrive.store..",
    "io.redrive.time..",
    "io.redrive.worker.."
  };

  /**
   * Who may use the store contract: core itself, the stores, the testkits and the workflow module.
   */
  private static final String[] STORE_USERS = {
    "io.redrive.jdbc..",
    "io.redrive.sqlite..",
    "io.redrive.postgres..",
    "io.redrive.testkit..",
    "io.redrive.workflow.."
  };

  /** What any application may hold of the store contract: core's own handles. */
  private static final Class<?>[] STORE_HANDLES = {Store.class, ReadySubscription.class};

  private static String[] core() {
    String[] all = new String[CORE_SUBPACKAGES.length + 1];
    all[0] = "io.redrive";
    System.arraycopy(CORE_SUBPACKAGES, 0, all, 1, CORE_SUBPACKAGES.length);
    return all;
  }

  @ArchTest
  static final ArchRule coreDependsOnNoStoreServerOrCli =
      noClasses()
          .that()
          .resideInAnyPackage(core())
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.redrive.jdbc..",
              "io.redrive.sqlite..",
              "io.redrive.postgres..",
              "io.redrive.server..",
              "io.redrive.cli..",
              "io.redrive.bench..",
              "io.redrive.testkit..")
          .because("core depends on no store, server, CLI or test module");

  @ArchTest
  static final ArchRule sqliteDependsOnNoOtherStore =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.sqlite..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.redrive.postgres..")
          .because("a store depends on no other store");

  @ArchTest
  static final ArchRule postgresDependsOnNoOtherStore =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.postgres..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.redrive.sqlite..")
          .because("a store depends on no other store");

  @ArchTest
  static final ArchRule jdbcLayerDependsOnNoStore =
      noClasses()
          .that()
          .resideInAPackage("io.redrive.jdbc..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.redrive.sqlite..", "io.redrive.postgres..")
          .because("the shared JDBC layer serves both stores and knows neither");

  @ArchTest
  static final ArchRule engineOnlyForCoreJdbcAndTestkit =
      classes()
          .that()
          .resideInAPackage("io.redrive.engine..")
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAnyPackage(
              with(
                  core(),
                  "io.redrive.jdbc..",
                  "io.redrive.testkit..",
                  "io.redrive.workflow.runtime.."))
          .because(
              "io.redrive.engine is exported only to io.redrive.jdbc, io.redrive.testkit and"
                  + " io.redrive.workflow (whose turn decider asks DeliveryRules, the one poison"
                  + " rule)");

  @ArchTest
  static final ArchRule timeOnlyForCoreAndTheApplications =
      classes()
          .that()
          .resideInAPackage("io.redrive.time..")
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAnyPackage(
              with(
                  core(),
                  "io.redrive.server..",
                  "io.redrive.cli..",
                  "io.redrive.bench..",
                  "io.redrive.testkit.."))
          .because("io.redrive.time is exported only to the server, CLI, benchmark and testkit");

  @ArchTest
  static final ArchRule jdbcWorkflowAndSeamOnlyForTheJdbcLayer =
      classes()
          .that()
          .resideInAnyPackage("io.redrive.jdbc.workflow..", "io.redrive.jdbc.owned..")
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAPackage("io.redrive.jdbc..")
          .because(
              "io.redrive.jdbc.workflow and io.redrive.jdbc.owned are not exported: the workflow"
                  + " statements and their seam to the queue statements are the JDBC layer's own");

  @ArchTest
  static final ArchRule workflowDoorOnlyForTheWorkflowModule =
      classes()
          .that()
          .resideInAPackage("io.redrive.internal.workflow..")
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAnyPackage(
              "io.redrive", "io.redrive.internal.workflow..", "io.redrive.workflow..")
          .because(
              "io.redrive.internal.workflow is exported only to io.redrive.workflow: Redrive hands"
                  + " its store to no one else");

  @ArchTest
  static final ArchRule coreHandsOutNoStore =
      noMethods()
          .that()
          .arePublic()
          .and()
          .areDeclaredInClassesThat()
          .arePublic()
          .and()
          .areDeclaredInClassesThat()
          .resideInAnyPackage(without(core(), "io.redrive.store..", "io.redrive.internal.."))
          .should()
          .haveRawReturnType(assignableTo(Store.class).or(assignableTo(WorkflowStore.class)))
          .because(
              "Redrive does not hand out its store: code that needs it keeps its own reference, the"
                  + " workflow module goes through WorkflowStores");

  @ArchTest
  static final ArchRule storeContractOnlyForStoresTestkitsAndWorkflows =
      classes()
          .that()
          .resideInAPackage("io.redrive.store..")
          .and()
          .doNotBelongToAnyOf(STORE_HANDLES)
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAnyPackage(with(core(), STORE_USERS))
          .because(
              "the server, CLI and benchmark speak Redrive's and WorkflowClient's API; of the store"
                  + " contract they hold only Store (to build a Redrive) and ReadySubscription");

  @ArchTest
  static final ArchRule onlyStoresTestkitsAndWorkflowsCallTheStore =
      noClasses()
          .that()
          .resideOutsideOfPackages(with(core(), STORE_USERS))
          .should()
          .callMethodWhere(storeMethodOtherThanClose())
          .because(
              "an application opens and closes its store; everything else goes through Redrive");

  @ArchTest
  static final ArchRule serverHttpOnlyForTheServer =
      classes()
          .that()
          .resideInAPackage("io.redrive.server.http..")
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAPackage("io.redrive.server..")
          .because("io.redrive.server.http is not exported: routes and bodies are the server's");

  @ArchTest
  static final ArchRule nothingDependsOnTheCli =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.redrive.cli..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.redrive.cli..")
          .because("the CLI is an application and exports nothing");

  @ArchTest
  static final ArchRule nothingDependsOnTheBenchmark =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.redrive.bench..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.redrive.bench..")
          .because("the benchmark is an application and exports nothing");

  @ArchTest
  static final ArchRule onlyTheOpenTelemetryModuleNamesOpenTelemetry =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.redrive.opentelemetry..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.opentelemetry..")
          .because(
              "OpenTelemetry stays optional: core speaks the io.redrive.trace SPI, and only"
                  + " redrive-opentelemetry implements it with OpenTelemetry's API");

  /**
   * Every rule above can fail: each one, run over the test-only classes that break it on purpose
   * ({@code io.redrive.*.violation}, outside what the rules analyze), reports that class.
   */
  @Test
  void everyRule_onAClassBreakingIt_reportsThatClass() {
    JavaClasses breaking =
        new ClassFileImporter()
            .importClasses(
                CoreReachingOut.class,
                SqliteReachingOut.class,
                PostgresReachingOut.class,
                JdbcReachingOut.class,
                ServerReachingOut.class,
                CliReachingOut.class,
                BenchStandIn.class,
                DeliveryRules.class,
                DurationText.class,
                Workflows.class,
                HttpApi.class,
                RedriveCommand.class,
                ServerReadingTheStore.class,
                CoreHandingOutItsStore.class,
                ServerTracingByHand.class,
                WorkflowStores.class,
                InstanceRow.class,
                Store.class);
    Map<ArchRule, Class<?>> caughtBy =
        Map.ofEntries(
            Map.entry(coreDependsOnNoStoreServerOrCli, CoreReachingOut.class),
            Map.entry(sqliteDependsOnNoOtherStore, SqliteReachingOut.class),
            Map.entry(postgresDependsOnNoOtherStore, PostgresReachingOut.class),
            Map.entry(jdbcLayerDependsOnNoStore, JdbcReachingOut.class),
            Map.entry(engineOnlyForCoreJdbcAndTestkit, ServerReachingOut.class),
            Map.entry(timeOnlyForCoreAndTheApplications, SqliteReachingOut.class),
            Map.entry(jdbcWorkflowAndSeamOnlyForTheJdbcLayer, PostgresReachingOut.class),
            Map.entry(workflowDoorOnlyForTheWorkflowModule, ServerReadingTheStore.class),
            Map.entry(coreHandsOutNoStore, CoreHandingOutItsStore.class),
            Map.entry(storeContractOnlyForStoresTestkitsAndWorkflows, ServerReadingTheStore.class),
            Map.entry(onlyStoresTestkitsAndWorkflowsCallTheStore, ServerReadingTheStore.class),
            Map.entry(serverHttpOnlyForTheServer, CliReachingOut.class),
            Map.entry(nothingDependsOnTheCli, ServerReachingOut.class),
            Map.entry(nothingDependsOnTheBenchmark, ServerReachingOut.class),
            Map.entry(onlyTheOpenTelemetryModuleNamesOpenTelemetry, ServerTracingByHand.class));
    caughtBy.forEach(
        (rule, breaker) -> {
          EvaluationResult result = rule.evaluate(breaking);
          assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
          assertThat(result.getFailureReport().getDetails())
              .as(rule.getDescription())
              .anyMatch(line -> line.contains(breaker.getName()));
        });
  }

  /** A call of a {@link Store} method, {@code close} excepted, on a store of any type. */
  private static DescribedPredicate<JavaMethodCall> storeMethodOtherThanClose() {
    Set<String> names =
        Arrays.stream(Store.class.getMethods())
            .map(Method::getName)
            .filter(n -> !n.equals("close"))
            .collect(Collectors.toSet());
    return DescribedPredicate.describe(
        "a Store method other than close",
        call ->
            call.getTargetOwner().isAssignableTo(Store.class) && names.contains(call.getName()));
  }

  private static String[] without(String[] packages, String... less) {
    return Arrays.stream(packages)
        .filter(p -> !Arrays.asList(less).contains(p))
        .toArray(String[]::new);
  }

  private static String[] with(String[] packages, String... more) {
    String[] all = new String[packages.length + more.length];
    System.arraycopy(packages, 0, all, 0, packages.length);
    System.arraycopy(more, 0, all, packages.length, more.length);
    return all;
  }
}
