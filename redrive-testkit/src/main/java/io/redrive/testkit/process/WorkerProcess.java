package io.redrive.testkit.process;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.Redrive;
import io.redrive.testkit.DatabaseAddress;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerContext;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The main class of a child-JVM worker: opens the store named by the {@value #ENV_DATABASE}
 * environment variable (a {@link DatabaseAddress#encode() database address}), runs one {@link
 * Worker} as its {@link WorkerSpec} arguments say, and talks to the test on stdout:
 *
 * <ul>
 *   <li>{@code READY <worker-id> <pid>} once the worker is leasing;
 *   <li>{@code RUNNING <type> <id> <attempt>} when a handler starts;
 *   <li>{@code STOPPED <clean>} after a graceful stop.
 * </ul>
 *
 * <p>It stops gracefully (worker stop with the spec's grace, store closed, exit 0) when its stdin
 * reaches end of file — so it also goes away when the test JVM dies — or on SIGTERM. SIGKILL and
 * {@link Behaviour#HALT} end it with nothing settled, which is what crash scenarios need. Failing
 * to start prints {@code FAILED <reason>} and exits 2.
 */
public final class WorkerProcess {
  /** The environment variable holding the encoded {@link DatabaseAddress}. */
  public static final String ENV_DATABASE = "REDRIVE_TEST_DATABASE";

  /** Exit status of a JVM killed by its handler ({@link Behaviour#HALT}), as SIGKILL reports. */
  public static final int HALT_STATUS = 137;

  private WorkerProcess() {}

  public static void main(String[] args) {
    Worker worker;
    Redrive redrive;
    WorkerSpec spec;
    try {
      spec = WorkerSpec.parse(args);
      redrive = Redrive.builder(DatabaseAddress.decode(System.getenv(ENV_DATABASE)).open()).build();
      Worker.Builder builder =
          Worker.builder(redrive, spec.queue())
              .id(spec.id())
              .concurrency(spec.concurrency())
              .pollInterval(Duration.ofMillis(20), spec.pollMax())
              .shutdownGrace(spec.shutdownGrace())
              .queueDepthInterval(Duration.ZERO)
              // Children lease every type, as the process scenarios are written: a child
              // lacking a type bounces it (rolling deployments).
              .leaseOnlyHandledTypes(false)
              .meterRegistry(new SimpleMeterRegistry());
      if (spec.leaseTimeout() != null) {
        builder.leaseTimeout(spec.leaseTimeout());
      }
      if (spec.unregisteredBackoff() != null) {
        builder.unregisteredBackoff(spec.unregisteredBackoff());
      }
      Redrive engine = redrive;
      Path results = spec.results();
      spec.handlers().forEach((type, b) -> builder.handler(type, handler(b, engine, results)));
      worker = builder.build();
    } catch (RuntimeException e) {
      say("FAILED " + e);
      e.printStackTrace(System.out);
      System.exit(2);
      return;
    }
    Worker w = worker;
    Redrive r = redrive;
    Duration grace = spec.shutdownGrace();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  boolean clean = w.stop(grace);
                  r.close();
                  say("STOPPED " + clean);
                },
                "worker-process-stop"));
    worker.start();
    say("READY " + worker.id() + " " + ProcessHandle.current().pid());
    try {
      while (System.in.read() != -1) {
        // the test writes nothing; end of input means "stop"
      }
    } catch (IOException e) {
      // stdin broken: the test is gone, stop as well
    }
    System.exit(0);
  }

  private static Handler handler(Behaviour behaviour, Redrive redrive, Path results) {
    return switch (behaviour) {
      case COMPLETE ->
          ctx -> {
            running(ctx);
            if (results != null) {
              new ResultLine(
                      ctx.id(),
                      ctx.type(),
                      ctx.attempt(),
                      ctx.workerId(),
                      ResultLine.steps(redrive.getMessage(ctx.id()).history()))
                  .appendTo(results);
            }
            return HandlerResult.complete();
          };
      case HALT ->
          ctx -> {
            running(ctx);
            Runtime.getRuntime().halt(HALT_STATUS);
            throw new AssertionError("unreachable");
          };
      case BLOCK ->
          ctx -> {
            running(ctx);
            while (true) {
              Thread.sleep(1_000); // interrupted by a graceful stop; otherwise killed
            }
          };
    };
  }

  private static void running(HandlerContext ctx) {
    say("RUNNING " + ctx.type() + " " + ctx.id() + " " + ctx.attempt());
  }

  private static void say(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }
}
