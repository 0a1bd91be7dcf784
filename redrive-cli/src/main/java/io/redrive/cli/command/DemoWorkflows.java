package io.redrive.cli.command;

import io.redrive.workflow.WorkflowRegistry;

/**
 * The orchestration {@code redrive server --workflows demo} runs, for the README's workflow tour:
 * {@code welcome} sends a welcome through the activity {@code send-welcome}, which no Java code
 * registers, so any worker of the {@code wf.activities} queue runs it ({@code redrive work
 * wf.activities --result --exec CMD}).
 */
public final class DemoWorkflows {
  private DemoWorkflows() {}

  /** The demo's registry: {@code welcome@1.0.0}. */
  public static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "welcome",
            "1.0.0",
            String.class,
            String.class,
            (ctx, name) ->
                "welcome sent to " + ctx.callActivity("send-welcome", name, String.class).await())
        .build();
  }
}
