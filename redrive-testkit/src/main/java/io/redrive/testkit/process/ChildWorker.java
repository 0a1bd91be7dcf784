package io.redrive.testkit.process;

import io.redrive.testkit.DatabaseAddress;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@link WorkerProcess} in a child JVM, seen from the test: started with this JVM's {@code java}
 * and class path, its stdout and stderr copied line by line to a log file (for debugging) and kept
 * for {@link #awaitLine}. Ends by SIGKILL ({@link #kill()}), SIGTERM ({@link #terminate}), end of
 * stdin ({@link #closeInput}) or its own handler ({@link Behaviour#HALT}); {@link #close()} makes
 * sure it is gone. Thread-safe.
 */
public final class ChildWorker implements AutoCloseable {
  private static final Duration EXIT_WAIT = Duration.ofSeconds(15);

  private final WorkerSpec spec;
  private final Process process;
  private final Path log;
  private final Thread reader;
  private final List<String> lines = new ArrayList<>();
  private boolean ended;

  private ChildWorker(WorkerSpec spec, Process process, Path log) {
    this.spec = spec;
    this.process = process;
    this.log = log;
    this.reader = new Thread(this::copyOutput, "child-output-" + spec.id());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a child JVM running {@code spec} against {@code database}; its output goes to {@code
   * <logDir>/<worker-id>.log}. Returns at once; see {@link #awaitReady()}.
   */
  public static ChildWorker start(WorkerSpec spec, DatabaseAddress database, Path logDir) {
    List<String> command = javaCommand(WorkerProcess.class);
    command.addAll(spec.toArgs());
    try {
      Files.createDirectories(logDir);
      Path log = logDir.resolve(spec.id() + ".log");
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().put(WorkerProcess.ENV_DATABASE, database.encode());
      return new ChildWorker(spec, builder.start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start child worker " + spec.id(), e);
    }
  }

  /**
   * The command that runs {@code mainClass} in a child JVM with this JVM's {@code java} and class
   * path, tuned for a quick start on a small machine (C1 only, serial GC, a small heap); add the
   * program's arguments to it.
   */
  public static List<String> javaCommand(Class<?> mainClass) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Xmx192m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    return command;
  }

  public String id() {
    return spec.id();
  }

  public WorkerSpec spec() {
    return spec;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The file holding the child's stdout and stderr. */
  public Path log() {
    return log;
  }

  /** Every line the child printed so far. */
  public synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  /** Waits for the {@code READY} line (the worker is leasing). */
  public ChildWorker awaitReady(Duration max) {
    awaitLine(l -> l.startsWith("READY "), max, "READY");
    return this;
  }

  /** Waits until a handler of this child runs message {@code id}; returns the attempt. */
  public int awaitRunning(String messageId, Duration max) {
    String line =
        awaitLine(
            l -> l.startsWith("RUNNING ") && l.split(" ")[2].equals(messageId),
            max,
            "RUNNING <type> " + messageId);
    return Integer.parseInt(line.split(" ")[3]);
  }

  /** The ids of the messages whose handlers started here, in order (one per delivery). */
  public synchronized List<String> ran() {
    return lines.stream().filter(l -> l.startsWith("RUNNING ")).map(l -> l.split(" ")[2]).toList();
  }

  /**
   * Waits for the first line (printed since start) that {@code matcher} accepts. Fails at once if
   * the child's output ends without one, and after {@code max} otherwise, showing the log's tail.
   */
  public String awaitLine(Predicate<String> matcher, Duration max, String what) {
    long deadline = System.nanoTime() + max.toNanos();
    synchronized (this) {
      int seen = 0;
      while (true) {
        for (; seen < lines.size(); seen++) {
          if (matcher.test(lines.get(seen))) {
            return lines.get(seen);
          }
        }
        long left = deadline - System.nanoTime();
        if (ended || left <= 0) {
          throw new AssertionError(
              "child worker "
                  + spec.id()
                  + (ended ? " ended" : " did not print it within " + max)
                  + " before printing "
                  + what
                  + "; log "
                  + log
                  + " ends with:\n"
                  + tail());
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted waiting for " + what, e);
        }
      }
    }
  }

  /** SIGKILL: nothing in the child runs any more, nothing is settled. Returns the exit status. */
  public int kill() {
    process.destroyForcibly();
    return awaitExit(EXIT_WAIT);
  }

  /**
   * SIGTERM: the child stops gracefully (shutdown hook) and exits with 143. Returns the exit
   * status. Sent through the {@link ProcessHandle}, because {@link Process#destroy()} also closes
   * the child's pipes, which would end its stdin (another stop signal) and lose its last lines.
   */
  public int terminate(Duration max) {
    process.toHandle().destroy();
    return awaitExit(max);
  }

  /** Closes the child's stdin, which it takes as "stop gracefully". Returns the exit status. */
  public int closeInput(Duration max) {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // already gone
    }
    return awaitExit(max);
  }

  /** Waits for the child to end by itself (e.g. a {@link Behaviour#HALT}); returns its status. */
  public int awaitExit(Duration max) {
    try {
      if (!process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(
            "child worker " + spec.id() + " still running after " + max + "; log " + log);
      }
      reader.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for child worker " + spec.id(), e);
    }
    return process.exitValue();
  }

  /** Kills the child if it still runs and waits for it: nothing outlives the test. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
    try {
      process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      reader.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "child worker " + spec.id() + " (pid " + process.pid() + ")";
  }

  private void copyOutput() {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.write(line);
        out.newLine();
        out.flush();
        synchronized (this) {
          lines.add(line);
          notifyAll();
        }
      }
    } catch (IOException e) {
      // the stream closes when the child dies; what was read is kept
    } finally {
      synchronized (this) {
        ended = true;
        notifyAll();
      }
    }
  }

  private String tail() {
    int from = Math.max(0, lines.size() - 30);
    return String.join("\n", lines.subList(from, lines.size()));
  }
}
