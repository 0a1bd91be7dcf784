package io.redrive.testkit.fault;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} that loses the answer of a share of COMMITs, as a network cut between the
 * store and the database would: the COMMIT reaches the database (and takes effect), then the caller
 * gets an {@link SQLException} with SQLState {@code 08006} and the physical connection is closed. A
 * write statement run in auto-commit mode commits as it ends, so its answer is cut the same way.
 * Every later call on that connection fails with "Connection is closed" and no SQLState, as a pool
 * answers for an evicted connection. Wrap an unpooled data source, so closing is physical.
 * Thread-safe; cutting is off until {@link #cutShare(double)} turns it on.
 */
public final class CommitCuttingDataSource extends WrappingDataSource {
  private static final java.util.regex.Pattern DATA_MODIFYING =
      java.util.regex.Pattern.compile("\\b(INSERT|UPDATE|DELETE)\\b");

  private final Random random;
  private final AtomicInteger cuts = new AtomicInteger();
  private final AtomicInteger commits = new AtomicInteger();
  private final ThreadLocal<int[]> cutsHere = ThreadLocal.withInitial(() -> new int[1]);
  private volatile double share;

  /**
   * @param target the data source whose connections are wrapped (unpooled)
   * @param seed makes the choice of cut commits repeatable
   */
  public CommitCuttingDataSource(DataSource target, long seed) {
    super(target);
    this.random = new Random(seed);
  }

  /** Cuts the answer of this share (0 to 1) of the commits from now on. */
  public CommitCuttingDataSource cutShare(double value) {
    if (value < 0 || value > 1) {
      throw new IllegalArgumentException("share: must be between 0 and 1, got " + value);
    }
    this.share = value;
    return this;
  }

  /** How many commits reached the database but had their answer cut. */
  public int cuts() {
    return cuts.get();
  }

  /**
   * How many cut commits the calling thread sent: a call's own cuts, apart from those of the
   * store's background threads (the throughput writer) at the same moment.
   */
  public int cutsOnThisThread() {
    return cutsHere.get()[0];
  }

  /** How many commits were sent (cut or not). */
  public int commits() {
    return commits.get();
  }

  private boolean cutNext() {
    double s = share;
    if (s == 0) {
      return false;
    }
    synchronized (random) {
      return random.nextDouble() < s;
    }
  }

  @Override
  protected Connection wrap(Connection real) throws SQLException {
    boolean[] cut = {false};
    boolean[] autoCommit = {real.getAutoCommit()};
    return connection(
        (proxy, method, args) -> {
          String name = method.getName();
          if (cut[0]) {
            return afterCut(name, method, args, real);
          }
          if (name.equals("commit")) {
            Object result = invoke(real, method, args); // the database commits
            countAndMaybeCut(cut, real);
            return result;
          }
          if (name.equals("setAutoCommit")) {
            invoke(real, method, args);
            autoCommit[0] = (Boolean) args[0];
            return null;
          }
          if (name.equals("prepareStatement") && isWrite((String) args[0])) {
            PreparedStatement statement = (PreparedStatement) invoke(real, method, args);
            return committingAlone(statement, real, cut, autoCommit);
          }
          return invoke(real, method, args);
        });
  }

  /**
   * A write statement whose execution, in auto-commit mode, is its commit: its answer is cut like a
   * COMMIT's.
   */
  private PreparedStatement committingAlone(
      PreparedStatement statement, Connection real, boolean[] cut, boolean[] autoCommit) {
    return (PreparedStatement)
        Proxy.newProxyInstance(
            PreparedStatement.class.getClassLoader(),
            new Class<?>[] {PreparedStatement.class},
            (proxy, method, args) -> {
              Object result = invoke(statement, method, args);
              if (autoCommit[0] && !cut[0] && method.getName().startsWith("execute")) {
                countAndMaybeCut(cut, real);
              }
              return result;
            });
  }

  private void countAndMaybeCut(boolean[] cut, Connection real) throws SQLException {
    commits.incrementAndGet();
    if (cutNext()) {
      cut[0] = true;
      cuts.incrementAndGet();
      cutsHere.get()[0]++;
      closeQuietly(real);
      throw new SQLException(
          "An I/O error occurred while sending to the backend (cut by the test)", "08006");
    }
  }

  private static boolean isWrite(String sql) {
    String head = sql.stripLeading().toUpperCase(java.util.Locale.ROOT);
    return head.startsWith("INSERT")
        || head.startsWith("UPDATE")
        || head.startsWith("DELETE")
        || (head.startsWith("WITH") && DATA_MODIFYING.matcher(head).find());
  }

  private static Object afterCut(String name, Method method, Object[] args, Connection real)
      throws Throwable {
    return switch (name) {
      case "close" -> null;
      case "isClosed" -> true;
      case "isValid" -> false;
      case "equals" -> args[0] == real;
      case "hashCode" -> System.identityHashCode(real);
      case "toString" -> "cut connection";
      default -> throw new SQLException("Connection is closed");
    };
  }

  private static void closeQuietly(Connection real) {
    try {
      real.close();
    } catch (SQLException ignored) {
      // already gone: the cut is what the test wants
    }
  }
}
