package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.deadletter.RedriveRequest;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.Keys;

/**
 * Any id finds its message, in Chromium on each store: the id an enqueue returned, typed into the
 * header's search box after the message was dead-lettered, redriven and dead-lettered again, opens
 * the copy where it is now, with a note and its lineage; a dedupe key finds its message too.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FindMessageBrowserTest extends BrowserTestBase {

  /** Leases the one message of {@code queue} and kills it for good; returns its id. */
  private static String killOne(String queue) {
    LeasedMessage m = redrive.lease(LeaseRequest.of(queue, "w-find", 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(m.token(), FailureReason.VALIDATION_FAILURE, "address is required")
            .withRetryable(false));
    return m.id();
  }

  private static String onlyIn(String queue) {
    return redrive.listMessages(MessageQuery.all(queue)).messages().get(0).id();
  }

  @Test
  void theEnqueuedId_afterADeadLetterMoveAndARedrive_findsTheMessage() {
    String dlq = queue("find-dlq", QueuePolicy.defaults());
    String q = queue("find", QueuePolicy.defaults().withDeadLetter(DeadLetter.moveTo(dlq)));
    String id =
        redrive
            .enqueue(
                NewMessage.builder(q, "ship")
                    .payload("{\"order\":42}")
                    .dedupeKey("order-42")
                    .build())
            .id();
    killOne(q);
    redrive.redrive(RedriveRequest.all(dlq));
    String first = killOne(q);
    String now = onlyIn(dlq);

    ui.open("/ui").signIn(ADMIN_KEY);
    ui.find("#search").sendKeys(id, Keys.ENTER);
    ui.awaitPresent("#moved-from");
    assertThat(ui.path()).startsWith("/ui/messages/" + now);
    assertThat(ui.text("#moved-from")).contains(id);
    assertThat(ui.text("#lineage")).contains(id).contains(first).contains(now).contains("gone");
    ui.screenshot("find-moved-message");

    ui.open("/ui/messages/" + id);
    assertThat(ui.path()).as("the old id's page leads on too").startsWith("/ui/messages/" + now);

    redrive.enqueue(
        NewMessage.builder(q, "ship").payload("{\"order\":43}").dedupeKey("order-43").build());
    ui.open("/ui");
    ui.find("#search").sendKeys("order-43", Keys.ENTER);
    ui.awaitPresent("#message-actions, .columns");
    assertThat(ui.path()).startsWith("/ui/messages/");
    assertThat(ui.heading()).contains(onlyIn(q));

    ui.open("/ui/search?q=no-such-thing-anywhere");
    assertThat(ui.text("#search-none")).contains("No message matches");
  }
}
