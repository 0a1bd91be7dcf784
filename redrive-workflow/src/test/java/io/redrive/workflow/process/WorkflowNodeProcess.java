package io.redrive.workflow.process;

import io.redrive.Redrive;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.workflow.StoreKind;
import io.redrive.workflow.WorkflowRuntime;
import io.redrive.workflow.WorkflowRuntime.Role;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The main class of a child-JVM workflow node: {@code <address> <nodeId> <ORCHESTRATIONS|
 * ACTIVITIES|BOTH> <mode> <sideEffectsFile> <maxAttempts> <backoffBaseMs> <backoffMaxMs>}. Prints
 * {@code READY <nodeId> <pid>} once its runtime runs, and the block lines of {@link CrashRegistry};
 * stops when its stdin ends.
 */
public final class WorkflowNodeProcess {
  /** Lease timeouts of crash scenarios: short, so another node takes over quickly. */
  public static final Duration LEASE = Duration.ofSeconds(2);

  private WorkflowNodeProcess() {}

  public static void main(String[] args) throws IOException {
    Redrive redrive = Redrive.builder(StoreKind.open(args[0])).build();
    WorkflowRuntime runtime =
        WorkflowRuntime.builder(
                redrive,
                CrashRegistry.registry(CrashRegistry.Mode.valueOf(args[3]), Path.of(args[4])))
            .nodeId(args[1])
            .roles(
                args[2].equals("BOTH")
                    ? new Role[] {Role.ORCHESTRATIONS, Role.ACTIVITIES}
                    : new Role[] {Role.valueOf(args[2])})
            .maxAttempts(Integer.parseInt(args[5]))
            .unregisteredBackoff(
                new UnregisteredHandlerBackoff(
                    Duration.ofMillis(Long.parseLong(args[6])),
                    6,
                    Duration.ofMillis(Long.parseLong(args[7]))))
            .turnLeaseTimeout(LEASE)
            .activityLeaseTimeout(LEASE)
            .pollInterval(Duration.ofMillis(50))
            .build()
            .start();
    System.out.println("READY " + args[1] + " " + ProcessHandle.current().pid());
    System.out.flush();
    while (System.in.read() != -1) {
      // end of input means stop
    }
    runtime.stop(Duration.ofSeconds(5));
    redrive.close();
    System.exit(0);
  }
}
