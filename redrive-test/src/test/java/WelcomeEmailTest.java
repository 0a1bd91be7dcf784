import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.test.DrainReport;
import io.redrive.test.MessageMatcher;
import io.redrive.test.RedriveTest;
import io.redrive.test.TestRedrive;
import io.redrive.worker.HandlerResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

@RedriveTest
public final class WelcomeEmailTest {
  /** The application's code under test: it enqueues, a handler sends. */
  record Signups(Redrive redrive) {
    void signUp(String email) {
      redrive.enqueue(
          NewMessage.builder("emails", "welcome").payload("{\"to\":\"" + email + "\"}").build());
    }
  }

  @Test
  void signingUpEnqueuesOneWelcomeEmail(TestRedrive redrive) {
    redrive.queue("emails");
    new Signups(redrive.engine()).signUp("ann@example.com");

    redrive.assertEnqueued(
        "emails", MessageMatcher.type("welcome").payload("$.to", "ann@example.com"));
    redrive.assertNotEnqueued("emails", MessageMatcher.type("receipt"));
  }

  @Test
  void drainRunsTheHandlerOnThisThread(TestRedrive redrive) {
    List<String> sent = new ArrayList<>();
    redrive.handle(
        "emails",
        "welcome",
        ctx -> {
          sent.add(ctx.payload());
          return HandlerResult.complete();
        });
    new Signups(redrive.engine()).signUp("ann@example.com");

    DrainReport report = redrive.drain("emails");

    assertThat(report.completed()).hasSize(1);
    assertThat(sent).containsExactly("{\"to\":\"ann@example.com\"}");
  }
}
