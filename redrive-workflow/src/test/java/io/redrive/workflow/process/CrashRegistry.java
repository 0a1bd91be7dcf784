package io.redrive.workflow.process;

import io.redrive.workflow.Task;
import io.redrive.workflow.WorkflowRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The code every node of the crash scenarios runs, in the test JVM and in child JVMs alike; a child
 * started with a block mode stops dead at a point the test then kills it in.
 */
public final class CrashRegistry {
  /** Where a child node blocks, or NONE. */
  public enum Mode {
    NONE,
    /** In an orchestration turn, after it scheduled its activity and before it commits. */
    BLOCK_IN_TURN,
    /** In the activity, after its side effect and before it settles. */
    BLOCK_IN_ACTIVITY,
    /** Old code of a rolling deployment: no NewActivity, Versioned 1.0.0 only. */
    ROLLING_OLD,
    /** New code of a rolling deployment: NewActivity and Versioned 2.0.0 too. */
    ROLLING_NEW
  }

  private CrashRegistry() {}

  /** The registry; side effects of "SideEffect" are appended as lines to {@code sideEffects}. */
  public static WorkflowRegistry registry(Mode mode, Path sideEffects) {
    WorkflowRegistry.Builder b = WorkflowRegistry.builder();
    if (mode == Mode.ROLLING_OLD || mode == Mode.ROLLING_NEW) {
      b.orchestration(
              "Rolling",
              "1.0.0",
              String.class,
              String.class,
              (ctx, in) -> ctx.callActivity("NewActivity", in, String.class).await())
          .orchestration(
              "Versioned",
              "1.0.0",
              String.class,
              String.class,
              (ctx, in) -> ctx.continueAsNew("2.0.0", in + "-v1"))
          .activity("OldActivity", String.class, String.class, (ctx, in) -> in);
      if (mode == Mode.ROLLING_NEW) {
        b.orchestration(
                "Versioned", "2.0.0", String.class, String.class, (ctx, in) -> in + "-v2-completed")
            .activity(
                "NewActivity", String.class, String.class, (ctx, in) -> "NewActivity result " + in);
      }
      return b.build();
    }
    return b.orchestration(
            "LocalCrash",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.callActivity(
                        "HaltingLocal",
                        in,
                        new com.fasterxml.jackson.core.type.TypeReference<String>() {},
                        io.redrive.workflow.ActivityOptions.local())
                    .await())
        .activity(
            "HaltingLocal",
            String.class,
            String.class,
            (ctx, in) -> {
              append(
                  sideEffects,
                  ctx.instanceId() + " attempt " + ctx.attempt() + " on " + ctx.workerId());
              if (ctx.workerId().startsWith("doomed")) {
                // kill -9 from the inside: no finally block, no shutdown hook, no commit
                Runtime.getRuntime().halt(137);
              }
              return in + " survived attempt " + ctx.attempt();
            })
        .orchestration(
            "CrashTurn",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              Task<String> step = ctx.callActivity("SideEffect", in, String.class);
              if (mode == Mode.BLOCK_IN_TURN && !ctx.isReplaying()) {
                blockHere("IN_TURN " + ctx.instanceId());
              }
              return step.await();
            })
        .activity(
            "SideEffect",
            String.class,
            String.class,
            (ctx, in) -> {
              append(sideEffects, ctx.instanceId() + " attempt " + ctx.attempt());
              if (mode == Mode.BLOCK_IN_ACTIVITY) {
                blockHere("IN_ACTIVITY " + ctx.instanceId());
              }
              return "side effect of " + in;
            })
        .build();
  }

  private static void blockHere(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
    while (true) {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        // a turn timeout interrupts; the test kills the JVM long before
      }
    }
  }

  private static void append(Path file, String line) {
    try {
      Files.writeString(
          file,
          line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
