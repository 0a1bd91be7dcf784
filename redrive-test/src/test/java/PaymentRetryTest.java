import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.test.Drain;
import io.redrive.test.DrainReport;
import io.redrive.test.RedriveTest;
import io.redrive.test.TestRedrive;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@RedriveTest
public final class PaymentRetryTest {
  @Test
  void aFailedChargeWaitsForItsBackoff(TestRedrive redrive) {
    redrive.queue("payments", QueuePolicy.defaults().withRetry(3, Duration.ofMinutes(5)));
    AtomicInteger calls = new AtomicInteger();
    redrive.handle(
        "payments",
        "charge",
        ctx -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("card processor timed out");
          }
          return HandlerResult.complete();
        });
    redrive.engine().enqueue(NewMessage.builder("payments", "charge").payload("{}").build());

    DrainReport first = redrive.drain("payments");
    assertThat(first.failed()).hasSize(1);
    assertThat(redrive.drain("payments").runs()).isEmpty(); // the retry is not due yet

    redrive.advance(Duration.ofMinutes(5));
    assertThat(redrive.drain("payments").completed()).hasSize(1);
  }

  @Test
  void followingRetriesShowsWhereAMessageEnds(TestRedrive redrive) {
    redrive.queue("payments", QueuePolicy.defaults().withRetry(3, Duration.ofHours(1)));
    redrive.handle(
        "payments",
        "charge",
        ctx -> {
          throw new IllegalStateException("card declined");
        });
    redrive.engine().enqueue(NewMessage.builder("payments", "charge").payload("{}").build());

    DrainReport report = redrive.drain("payments", Drain.defaults().followRetries());

    assertThat(report.failed()).hasSize(2);
    assertThat(report.died())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.attempt()).isEqualTo(3);
              assertThat(d.reason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
              assertThat(d.error()).contains("card declined");
            });
  }
}
