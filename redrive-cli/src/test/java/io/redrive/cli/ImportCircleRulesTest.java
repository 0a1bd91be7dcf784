package io.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.redrive.cli.violation.circle.left.Ping;
import io.redrive.cli.violation.circle.right.Pong;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * No import circle anywhere in the main code of any module: no set of top-level classes of more
 * than one package depends on itself round a circle (each such circle needs an import both ways).
 * Classes of one package may still use each other (an interface and its default implementation, the
 * replay engine's units). One circle is decided and named: the door of {@code Redrive} to the
 * workflow module ({@code WorkflowStores}), two halves of one handshake, as the JDK's own shared
 * secrets are.
 */
class ImportCircleRulesTest {
  /** The decided circle: Redrive installs its half of the door, the door names Redrive. */
  static final Set<String> DECIDED =
      Set.of("io.redrive.Redrive", "io.redrive.internal.workflow.WorkflowStores");

  @Test
  void mainCode_hasNoImportCircle() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.redrive");

    List<Set<String>> circles = importCircles(classes);

    assertThat(circles)
        .as("import circles (classes of several packages using each other)")
        .isEmpty();
  }

  @Test
  void mainCode_hasNoImportCircle_onTwoClassesImportingEachOther_reportsThem() {
    JavaClasses classes = new ClassFileImporter().importClasses(Ping.class, Pong.class);

    assertThat(importCircles(classes))
        .containsExactly(new TreeSet<>(List.of(Ping.class.getName(), Pong.class.getName())));
  }

  /**
   * The circles of {@code classes}' top-level classes that span packages, the decided one aside.
   */
  static List<Set<String>> importCircles(JavaClasses classes) {
    Map<String, Set<String>> uses = new TreeMap<>();
    for (JavaClass c : classes) {
      String from = topLevel(c);
      uses.computeIfAbsent(from, k -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        JavaClass target = d.getTargetClass().getBaseComponentType();
        String to = topLevel(target);
        if (!to.equals(from) && classes.contain(target.getName())) {
          uses.get(from).add(to);
        }
      }
    }
    List<Set<String>> circles = new ArrayList<>();
    for (Set<String> component : new Components(uses).all()) {
      Set<String> packages =
          component.stream()
              .map(n -> n.substring(0, n.lastIndexOf('.')))
              .collect(Collectors.toSet());
      if (component.size() > 1 && packages.size() > 1 && !component.equals(DECIDED)) {
        circles.add(component);
      }
    }
    return circles;
  }

  private static String topLevel(JavaClass c) {
    JavaClass top = c;
    while (top.getEnclosingClass().isPresent()) {
      top = top.getEnclosingClass().get();
    }
    return top.getName();
  }

  /** Strongly connected components of a graph (Tarjan), each a set of node names. */
  private static final class Components {
    private final Map<String, Set<String>> edges;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new TreeSet<>();
    private final List<Set<String>> found = new ArrayList<>();

    Components(Map<String, Set<String>> edges) {
      this.edges = edges;
    }

    List<Set<String>> all() {
      for (String v : edges.keySet()) {
        if (!index.containsKey(v)) {
          visit(v);
        }
      }
      return found;
    }

    private void visit(String v) {
      index.put(v, index.size());
      low.put(v, index.get(v));
      stack.push(v);
      onStack.add(v);
      for (String w : edges.getOrDefault(v, Set.of())) {
        if (!index.containsKey(w)) {
          visit(w);
          low.put(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
      }
      if (low.get(v).equals(index.get(v))) {
        Set<String> component = new TreeSet<>();
        String w;
        do {
          w = stack.pop();
          onStack.remove(w);
          component.add(w);
        } while (!w.equals(v));
        found.add(component);
      }
    }
  }
}
