import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.postgres.PostgresStore;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

public final class PostgresExample {
  /**
   * Runs beside the application's tables, on the application's own pool (never closed by Redrive).
   */
  public static void run(DataSource appDataSource) throws Exception {
    try (Redrive redrive = Redrive.builder(PostgresStore.builder(appDataSource).build()).build()) {
      // Start-up code: idempotent, so every boot of every node can run it.
      redrive.declareQueue("emails.dlq", QueuePolicy.defaults());
      redrive.declareQueue(
          "emails",
          QueuePolicy.defaults()
              .withMaxAttempts(5)
              .withDeadLetter(DeadLetter.moveTo("emails.dlq")));

      // The message commits with the application's own write, or not at all.
      try (Connection c = appDataSource.getConnection()) {
        c.setAutoCommit(false);
        try (PreparedStatement order = c.prepareStatement("INSERT INTO orders (item) VALUES (?)")) {
          order.setString(1, "teapot");
          order.executeUpdate();
        }
        redrive.enqueue(
            c,
            NewMessage.builder("emails", "send-email")
                .payload("{\"to\":\"ada@example.com\"}")
                .build());
        c.commit();
      }

      CountDownLatch sent = new CountDownLatch(1);
      Worker worker =
          Worker.builder(redrive, "emails")
              .concurrency(8)
              .handler(
                  "send-email",
                  ctx -> {
                    System.out.println("sending " + ctx.payload()); // your mailer here
                    sent.countDown();
                    return HandlerResult
                        .complete(); // or fail / retryAfter / deadNow; a throw is classified
                  })
              .build()
              .start();
      sent.await(30, TimeUnit.SECONDS);
      worker.stop(Duration.ofSeconds(10)); // graceful: running handlers finish and settle
    }
  }
}
