import io.redrive.Redrive;
import io.redrive.sqlite.SqliteStore;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

public final class OrderWorkflowExample {
  record Order(String id, int cents) {}

  public static String run(Path dataDirectory) throws Exception {
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "order",
                "1.0.0",
                Order.class,
                String.class,
                (ctx, order) -> {
                  String charge = ctx.callActivity("charge", order, String.class).await();
                  ctx.setStatus("waiting for the warehouse");
                  Optional<String> tracking =
                      ctx.waitForEvent("shipped", String.class, Duration.ofDays(3)).await();
                  if (tracking.isEmpty()) {
                    return ctx.callActivity("refund", charge, String.class).await();
                  }
                  ctx.createTimer(Duration.ofMillis(500))
                      .await(); // e.g. before asking for a review
                  return order.id() + " shipped as " + tracking.get() + " after " + charge;
                })
            .activity(
                "charge", Order.class, String.class, (ctx, order) -> "charge of " + order.cents())
            .activity("refund", String.class, String.class, (ctx, charge) -> "refunded " + charge)
            .build();

    try (Redrive redrive = Redrive.builder(SqliteStore.inDirectory(dataDirectory)).build();
        WorkflowRuntime runtime = WorkflowRuntime.builder(redrive, registry).build().start()) {
      WorkflowClient client = runtime.client();
      String id = client.start(StartRequest.of("order", new Order("o-1", 4200))).instanceId();
      client.raiseEvent(id, "shipped", "TRACK-9", null);
      return client.awaitResult(id, Duration.ofSeconds(30), String.class);
    }
  }

  public static void main(String[] args) throws Exception {
    System.out.println(run(Path.of(args.length > 0 ? args[0] : "data")));
  }
}
