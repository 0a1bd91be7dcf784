package io.redrive.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.worker.HandlerResult;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * An application's service enqueueing inside its own transaction, as its tests would check it: a
 * rolled-back signup leaves no message, a committed one leaves exactly one; inline mode leaves
 * transaction-joined enqueues to a drain after the commit.
 */
abstract class TransactionContract {
  /** The application's own data source on the kit's database. */
  abstract DataSource appDataSource(TestRedrive kit);

  private SignupService service(TestRedrive kit) throws Exception {
    kit.queue("emails");
    SignupService service = new SignupService(appDataSource(kit), kit.engine());
    service.createTable();
    return service;
  }

  @Test
  void anEnqueueInARolledBackTransactionIsNotThere(TestRedrive kit) throws Exception {
    SignupService service = service(kit);
    service.signUp("refused@example.com", true);
    kit.assertNotEnqueued("emails", MessageMatcher.type("welcome"));

    service.signUp("ann@example.com", false);
    kit.assertEnqueued(
        "emails", MessageMatcher.type("welcome").payload("$.email", "ann@example.com"));
    kit.assertNotEnqueued("emails", MessageMatcher.any().payload("$.email", "refused@example.com"));
  }

  @Test
  void inlineModeLeavesTransactionJoinedEnqueuesToADrain(TestRedrive kit) throws Exception {
    SignupService service = service(kit);
    AtomicInteger sent = new AtomicInteger();
    kit.handle(
        "emails",
        "welcome",
        ctx -> {
          sent.incrementAndGet();
          return HandlerResult.complete();
        });
    kit.inline(true);
    service.signUp("bob@example.com", false);
    assertThat(sent).hasValue(0);
    assertThat(kit.drain("emails").completed()).hasSize(1);
    assertThat(sent).hasValue(1);
  }
}
