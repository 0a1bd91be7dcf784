package io.redrive.test;

import io.redrive.Redrive;
import java.util.Objects;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 extension behind {@link RedriveTest}: one {@link TestRedrive} per test class (closed,
 * with its file or schema, after the class), {@link TestRedrive#reset() emptied} before each test
 * and handed to test and lifecycle methods that declare a {@link TestRedrive}, {@link Redrive} or
 * {@link TestClock} parameter. Register it with {@code @RegisterExtension} to choose the store or
 * configure the engine:
 *
 * <pre>{@code
 * @RegisterExtension
 * static RedriveExtension redrive = RedriveExtension.postgres(System.getenv("TEST_DB_URL"))
 *     .configure(b -> b.completedRetention(Duration.ofDays(1)));
 * }</pre>
 */
public final class RedriveExtension implements BeforeEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(RedriveExtension.class);

  private final String postgresUrl;
  private final DataSource postgresDataSource;
  private final Consumer<Redrive.Builder> customizer;

  /** The SQLite default, as {@link RedriveTest} uses it. */
  public RedriveExtension() {
    this(null, null, b -> {});
  }

  private RedriveExtension(
      String url, DataSource dataSource, Consumer<Redrive.Builder> customizer) {
    this.postgresUrl = url;
    this.postgresDataSource = dataSource;
    this.customizer = customizer;
  }

  /** An engine per test class on a new temporary SQLite file. */
  public static RedriveExtension sqlite() {
    return new RedriveExtension();
  }

  /**
   * An engine per test class on the PostgreSQL at {@code jdbcUrl} (credentials in the url), in a
   * schema of its own ({@code redrive_test_<class>_<random>}) dropped after the class. Needs {@code
   * redrive-postgres} on the test class path.
   */
  public static RedriveExtension postgres(String jdbcUrl) {
    if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "jdbcUrl: a PostgreSQL JDBC url (jdbc:postgresql://host/db?user=...) is required, was "
              + (jdbcUrl == null
                  ? "null"
                  : "\"" + jdbcUrl.replaceAll("password=[^&]*", "password=***") + "\""));
    }
    return new RedriveExtension(jdbcUrl, null, b -> {});
  }

  /** As {@link #postgres(String)}, on the application's data source (never closed by the kit). */
  public static RedriveExtension postgres(DataSource dataSource) {
    return new RedriveExtension(null, Objects.requireNonNull(dataSource, "dataSource"), b -> {});
  }

  /** Applies {@code value} to the engine's builder (after the kit set its store and clock). */
  public RedriveExtension configure(Consumer<Redrive.Builder> value) {
    Objects.requireNonNull(value, "value");
    return new RedriveExtension(postgresUrl, postgresDataSource, customizer.andThen(value));
  }

  /** The engine of the test class running in {@code context}, made on first use. */
  public static TestRedrive redriveOf(ExtensionContext context) {
    ExtensionContext classContext = classContext(context);
    Closing found = classContext.getStore(NAMESPACE).get(TestRedrive.class, Closing.class);
    if (found == null) {
      throw new IllegalStateException(
          "no Redrive test engine for "
              + classContext.getDisplayName()
              + ": annotate the class with @RedriveTest or register RedriveExtension");
    }
    return found.redrive();
  }

  @SuppressWarnings("deprecation") // getOrComputeIfAbsent: computeIfAbsent is new in JUnit 5.13
  private TestRedrive engineFor(ExtensionContext context) {
    ExtensionContext classContext = classContext(context);
    return classContext
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            TestRedrive.class, k -> new Closing(open(classContext)), Closing.class)
        .redrive();
  }

  /**
   * Closes the engine when JUnit drops the class's store. CloseableResource rather than
   * AutoCloseable: JUnit 5 before 5.13 closes only the former, and 6 still closes it.
   */
  @SuppressWarnings("deprecation")
  private record Closing(TestRedrive redrive) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      redrive.close();
    }
  }

  private TestRedrive open(ExtensionContext classContext) {
    String testClass = classContext.getRequiredTestClass().getName();
    TestStore store;
    if (postgresUrl == null && postgresDataSource == null) {
      store = TestStore.sqlite();
    } else {
      try {
        store = PostgresTestStores.open(postgresUrl, postgresDataSource, testClass);
      } catch (NoClassDefFoundError e) {
        throw new IllegalStateException(
            "RedriveExtension.postgres needs io.redrive:redrive-postgres on the test class path",
            e);
      }
    }
    return new TestRedrive(store, customizer);
  }

  /** The outermost class context, so nested classes share their enclosing class's engine. */
  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getParent().isPresent() && c.getParent().get().getTestClass().isPresent()) {
      c = c.getParent().get();
    }
    return c;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    engineFor(context).reset();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == TestRedrive.class || type == Redrive.class || type == TestClock.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    TestRedrive engine = engineFor(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == Redrive.class) {
      return engine.engine();
    }
    if (type == TestClock.class) {
      return engine.clock();
    }
    return engine;
  }
}
