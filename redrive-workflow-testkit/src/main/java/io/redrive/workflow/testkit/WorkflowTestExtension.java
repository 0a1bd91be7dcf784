package io.redrive.workflow.testkit;

import io.redrive.test.RedriveExtension;
import io.redrive.test.TestRedrive;
import io.redrive.workflow.WorkflowRegistry;
import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands test and lifecycle methods a {@link WorkflowTestEnvironment} parameter: one per test class,
 * on the engine of the class's {@link RedriveExtension} (from {@code @RedriveTest} or a registered
 * one, so SQLite or PostgreSQL as that extension says), reset with it before each test and closed
 * after the class.
 *
 * <pre>{@code
 * @RedriveTest
 * class OrderWorkflowTest {
 *   @RegisterExtension
 *   static WorkflowTestExtension workflows = WorkflowTestExtension.of(OrderWorkflows::registry);
 *
 *   @Test
 *   void shipsTheOrder(WorkflowTestEnvironment env) { ... }
 * }
 * }</pre>
 */
public final class WorkflowTestExtension implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(WorkflowTestExtension.class);

  private final Supplier<WorkflowRegistry> registry;
  private final WorkflowTestEnvironment.Builder settings;

  private WorkflowTestExtension(
      Supplier<WorkflowRegistry> registry, WorkflowTestEnvironment.Builder settings) {
    this.registry = registry;
    this.settings = settings;
  }

  /** Environments running {@code registry}, asked for once per test class. */
  public static WorkflowTestExtension of(Supplier<WorkflowRegistry> registry) {
    return new WorkflowTestExtension(
        Objects.requireNonNull(registry, "registry"), WorkflowTestEnvironment.builder());
  }

  /** Environments running {@code registry}. */
  public static WorkflowTestExtension of(WorkflowRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    return of(() -> registry);
  }

  /** The same, with the environments' runtime settings from {@code value}. */
  public WorkflowTestExtension with(WorkflowTestEnvironment.Builder value) {
    return new WorkflowTestExtension(registry, Objects.requireNonNull(value, "value"));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == WorkflowTestEnvironment.class;
  }

  @Override
  @SuppressWarnings("deprecation") // getOrComputeIfAbsent: computeIfAbsent is new in JUnit 5.13
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    TestRedrive redrive = RedriveExtension.redriveOf(context);
    // Beside the engine, in its class's store: closed (before the engine, made earlier) with it.
    return classContext(context)
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            WorkflowTestEnvironment.class, k -> new Closing(open(redrive)), Closing.class)
        .environment();
  }

  /**
   * Closes the environment when JUnit drops the class's store. CloseableResource rather than
   * AutoCloseable: JUnit 5 before 5.13 closes only the former, and 6 still closes it.
   */
  @SuppressWarnings("deprecation")
  private record Closing(WorkflowTestEnvironment environment)
      implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      environment.close();
    }
  }

  /** The outermost class context, as RedriveExtension keeps its engine there. */
  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getParent().isPresent() && c.getParent().get().getTestClass().isPresent()) {
      c = c.getParent().get();
    }
    return c;
  }

  private WorkflowTestEnvironment open(TestRedrive redrive) {
    WorkflowRegistry r = registry.get();
    if (r == null) {
      throw new IllegalStateException("WorkflowTestExtension: the registry supplier returned null");
    }
    return settings.open(redrive, r);
  }
}
