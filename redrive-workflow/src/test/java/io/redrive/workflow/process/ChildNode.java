package io.redrive.workflow.process;

import io.redrive.testkit.process.ChildWorker;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@link WorkflowNodeProcess} in a child JVM, seen from the test. */
final class ChildNode implements AutoCloseable {
  private final Process process;
  private final List<String> lines = new ArrayList<>();

  private ChildNode(Process process) {
    this.process = process;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                  }
                }
              } catch (IOException e) {
                // the child is gone
              }
            },
            "child-node-output");
    reader.setDaemon(true);
    reader.start();
  }

  static ChildNode start(
      String address, String nodeId, String role, CrashRegistry.Mode mode, Path sideEffects) {
    return start(address, nodeId, role, mode, sideEffects, 10, 1000, 60_000);
  }

  static ChildNode start(
      String address,
      String nodeId,
      String role,
      CrashRegistry.Mode mode,
      Path sideEffects,
      int maxAttempts,
      long backoffBaseMs,
      long backoffMaxMs) {
    List<String> command = ChildWorker.javaCommand(WorkflowNodeProcess.class);
    command.add(address);
    command.add(nodeId);
    command.add(role);
    command.add(mode.name());
    command.add(sideEffects.toString());
    command.add(String.valueOf(maxAttempts));
    command.add(String.valueOf(backoffBaseMs));
    command.add(String.valueOf(backoffMaxMs));
    try {
      return new ChildNode(new ProcessBuilder(command).redirectErrorStream(true).start());
    } catch (IOException e) {
      throw new IllegalStateException("could not start child node " + nodeId, e);
    }
  }

  /** Waits for a line starting with {@code prefix}; fails showing the output otherwise. */
  String awaitLine(String prefix, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    synchronized (lines) {
      while (true) {
        for (String l : lines) {
          if (l.startsWith(prefix)) {
            return l;
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || !process.isAlive()) {
          throw new AssertionError(
              "child node: no line starting with \""
                  + prefix
                  + "\"; output:\n"
                  + String.join("\n", lines));
        }
        lines.wait(Math.max(1, Math.min(200, left / 1_000_000)));
      }
    }
  }

  /** Closes its stdin: the node stops gracefully (a rolling restart); waits for it to exit. */
  void stopGracefully() throws InterruptedException {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // already gone
    }
    process.waitFor();
  }

  /** Waits for the node to end by itself (it halted); fails showing its output otherwise. */
  void awaitExit(Duration max) throws InterruptedException {
    if (!process.waitFor(max.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      synchronized (lines) {
        throw new AssertionError("child node did not exit; output:\n" + String.join("\n", lines));
      }
    }
  }

  /** SIGKILL: the node dies with whatever it held. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
