package io.redrive.testkit.process;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Locale;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source for a child JVM that kills its own process (as SIGKILL would) inside a schedule
 * firing, just before its COMMIT: when a connection that updated {@code redrive_schedules} commits
 * while the arm file exists, the first process to delete that file halts with {@link
 * WorkerProcess#HALT_STATUS}. The test arms by creating the file; exactly one node takes it.
 */
final class HaltingCommits implements DataSource {
  private final DataSource target;
  private final Path arm;

  HaltingCommits(DataSource target, Path arm) {
    this.target = target;
    this.arm = arm;
  }

  private Connection wrap(Connection real) {
    boolean[] firing = {false};
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              String name = method.getName();
              if (name.equals("prepareStatement")
                  && ((String) args[0]).toUpperCase(Locale.ROOT).stripLeading().startsWith("UPDATE")
                  && ((String) args[0]).contains("redrive_schedules")) {
                firing[0] = true;
              }
              if (name.equals("commit") || name.equals("rollback")) {
                if (name.equals("commit") && firing[0] && takeArm()) {
                  System.out.println("HALTING in a schedule firing before its commit");
                  System.out.flush();
                  Runtime.getRuntime().halt(WorkerProcess.HALT_STATUS);
                }
                firing[0] = false;
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private boolean takeArm() {
    try {
      Files.delete(arm);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    return wrap(target.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return wrap(target.getConnection(username, password));
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return target.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    target.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    target.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return target.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return target.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return target.unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return target.isWrapperFor(type);
  }
}
