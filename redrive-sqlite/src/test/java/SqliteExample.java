import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.failure.StackTraces;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.sqlite.SqliteStore;
import java.nio.file.Path;

public final class SqliteExample {
  /** Leases and settles by hand on the embedded SQLite store in {@code dataDir}. */
  public static void run(Path dataDir) {
    try (Redrive redrive = Redrive.builder(SqliteStore.inDirectory(dataDir)).build()) {
      redrive.declareQueue("emails.dlq", QueuePolicy.defaults());
      redrive.declareQueue(
          "emails",
          QueuePolicy.defaults()
              .withMaxAttempts(5)
              .withDeadLetter(DeadLetter.moveTo("emails.dlq")));

      redrive.enqueue(
          NewMessage.builder("emails", "send-email")
              .payload("{\"to\":\"ada@example.com\"}")
              .build());

      for (LeasedMessage m : redrive.lease(LeaseRequest.of("emails", "worker-1", 10)).leased()) {
        try {
          System.out.println("sending " + m.payload()); // your mailer here
          redrive.complete(m.token());
        } catch (RuntimeException e) {
          redrive.fail(
              FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, e.getMessage())
                  .withStackTrace(StackTraces.bounded(e, StackTraces.DEFAULT_MAX_CHARS)));
        }
      }
    }
  }
}
