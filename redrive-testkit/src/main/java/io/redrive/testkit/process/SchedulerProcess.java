package io.redrive.testkit.process;

import io.redrive.Redrive;
import io.redrive.maintenance.Scheduler;
import io.redrive.testkit.DatabaseAddress;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The main class of a child-JVM scheduler node: opens the store named by {@value
 * WorkerProcess#ENV_DATABASE} through {@link FrozenCommits} (armed by the file given as the first
 * argument) and runs a {@link Scheduler} that wakes at least every 50 ms. Prints {@code READY
 * <pid>} once firing; stops when its stdin ends; freezes inside a firing, before its commit, when
 * it takes the arm file (for the test to kill it there).
 */
public final class SchedulerProcess {
  private SchedulerProcess() {}

  public static void main(String[] args) {
    Path arm = Path.of(args[0]);
    Redrive redrive =
        Redrive.builder(
                DatabaseAddress.decode(System.getenv(WorkerProcess.ENV_DATABASE))
                    .open(ds -> new FrozenCommits(ds, arm)))
            .build();
    Scheduler scheduler = Scheduler.start(redrive, Duration.ofMillis(50));
    System.out.println("READY " + ProcessHandle.current().pid());
    System.out.flush();
    try {
      while (System.in.read() != -1) {
        // the test writes nothing; end of input means "stop"
      }
    } catch (IOException e) {
      // the test is gone: stop as well
    }
    scheduler.close();
    redrive.close();
    System.exit(0);
  }
}
