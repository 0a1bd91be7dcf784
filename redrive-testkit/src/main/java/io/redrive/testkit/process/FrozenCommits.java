package io.redrive.testkit.process;

import io.redrive.testkit.fault.WrappingDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * A data source for a child JVM that freezes inside a schedule firing, just before its COMMIT, for
 * the test to {@code kill -9} it there: when a connection that updated {@code redrive_schedules}
 * commits while the arm file exists, the first process to delete that file prints {@value #FROZEN}
 * and its pid and never commits. The test arms by creating the file; exactly one node takes it. Its
 * transaction stays open (its locks held) until the kill ends the connection.
 */
final class FrozenCommits extends WrappingDataSource {
  /** The line a node prints when it froze in a firing, followed by its pid. */
  static final String FROZEN = "FROZEN before a schedule firing's commit";

  private final Path arm;

  FrozenCommits(DataSource target, Path arm) {
    super(target);
    this.arm = arm;
  }

  @Override
  protected Connection wrap(Connection real) {
    boolean[] firing = {false};
    return connection(
        (proxy, method, args) -> {
          String name = method.getName();
          if (name.equals("prepareStatement")
              && ((String) args[0]).toUpperCase(Locale.ROOT).stripLeading().startsWith("UPDATE")
              && ((String) args[0]).contains("redrive_schedules")) {
            firing[0] = true;
          }
          if (name.equals("commit") || name.equals("rollback")) {
            if (name.equals("commit") && firing[0] && takeArm()) {
              System.out.println(FROZEN + " " + ProcessHandle.current().pid());
              System.out.flush();
              freeze();
            }
            firing[0] = false;
          }
          return invoke(real, method, args);
        });
  }

  private static void freeze() throws InterruptedException {
    while (true) {
      Thread.sleep(60_000); // until kill -9
    }
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
