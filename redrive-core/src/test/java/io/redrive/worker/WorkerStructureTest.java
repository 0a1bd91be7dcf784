package io.redrive.worker;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.conditions.ArchPredicates.are;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The worker runtime's shape: {@link Worker} is the top, nothing below it points back up, and its
 * classes depend on each other without a cycle (no arrow back up inside the package).
 */
class WorkerStructureTest {
  private static final String PACKAGE = "io.redrive.worker";

  /**
   * The one allowed cycle: the public {@link FailureClassifier} hands out its default
   * implementation, which implements it.
   */
  private static final Set<String> ALLOWED_CYCLE =
      Set.of("FailureClassifier", "DefaultFailureClassifier");

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages(PACKAGE);

  @Test
  void nothingBelowWorkerDependsOnWorker() {
    DescribedPredicate<JavaClass> workerOrItsBuilder = belongToAnyOf(Worker.class);
    noClasses()
        .that()
        .resideInAPackage(PACKAGE)
        .and(DescribedPredicate.not(workerOrItsBuilder))
        .should()
        .dependOnClassesThat(are(workerOrItsBuilder))
        .because("the worker's machinery sits below its facade and never points back up")
        .check(CLASSES);
  }

  @Test
  void theWorkerPackageHasNoCycle() {
    Map<String, Set<String>> graph = importGraph(CLASSES);
    assertThat(graph).containsKeys("Worker", "Dispatcher", "HeldLease");
    List<List<String>> cycles = new ArrayList<>();
    for (String start : graph.keySet()) {
      findCycles(graph, start, new ArrayList<>(List.of(start)), cycles);
    }
    cycles.removeIf(c -> ALLOWED_CYCLE.containsAll(c));
    assertThat(cycles).as("cycles among the classes of %s", PACKAGE).isEmpty();
  }

  /** Top-level class (simple name) to the top-level classes of the package it depends on. */
  static Map<String, Set<String>> importGraph(JavaClasses classes) {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (JavaClass c : classes) {
      if (!c.getPackageName().equals(PACKAGE)) {
        continue;
      }
      Set<String> targets = graph.computeIfAbsent(topLevel(c), k -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        JavaClass target = d.getTargetClass().getBaseComponentType();
        if (target.getPackageName().equals(PACKAGE) && !topLevel(target).equals(topLevel(c))) {
          targets.add(topLevel(target));
        }
      }
    }
    return graph;
  }

  private static String topLevel(JavaClass c) {
    String name = c.getName().substring(PACKAGE.length() + 1);
    int nested = name.indexOf('$');
    return nested < 0 ? name : name.substring(0, nested);
  }

  /** Every cycle through {@code path}'s first class, each found from its smallest name once. */
  private static void findCycles(
      Map<String, Set<String>> graph, String at, List<String> path, List<List<String>> cycles) {
    for (String next : graph.getOrDefault(at, Set.of())) {
      if (next.equals(path.get(0))) {
        cycles.add(List.copyOf(path));
      } else if (!path.contains(next) && next.compareTo(path.get(0)) > 0) {
        path.add(next);
        findCycles(graph, next, path, cycles);
        path.remove(path.size() - 1);
      }
    }
  }
}
