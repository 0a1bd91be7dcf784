package io.redrive.testkit.process;

import io.redrive.testkit.fault.WrappingDataSource;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * A data source for a child JVM that kills its own process (as SIGKILL would) inside a schedule
 * firing, just before its COMMIT: when a connection that updated {@code redrive_schedules} commits
 * while the arm file exists, the first process to delete that file halts with {@link
 * WorkerProcess#HALT_STATUS}. The test arms by creating the file; exactly one node takes it.
 */
final class HaltingCommits extends WrappingDataSource {
  private final Path arm;

  HaltingCommits(DataSource target, Path arm) {
    super(target);
    this.arm = arm;
  }

  @Override
  protected Connection wrap(Connection real) {
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
              return invoke(real, method, args);
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
}
