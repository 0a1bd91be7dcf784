package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.StoreException;
import io.redrive.lease.LeaseRequest;
import io.redrive.message.MessageQuery;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A store that cannot reach its database reports {@link StoreException} naming the operation, never
 * a vendor or pool exception.
 */
public abstract class StoreFailureContract extends ComplianceTestBase {

  @Test
  void everyCall_afterStoreClosed_throwsStoreExceptionNamingTheOperation() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    store.close();
    List<ThrowingCallable> calls =
        List.of(
            () -> redrive.createQueue(OTHER),
            () -> redrive.getQueue(QUEUE),
            () -> redrive.listQueues(),
            () -> redrive.enqueue(newMessage(QUEUE).build()),
            () -> redrive.lease(LeaseRequest.of(QUEUE, WORKER, 1)),
            () -> redrive.getMessage(id),
            () -> redrive.listMessages(MessageQuery.all(QUEUE)),
            () -> redrive.stats(QUEUE),
            () -> redrive.retry(List.of(id), null),
            () -> redrive.drop(List.of(id)),
            () -> redrive.expireDue());
    for (ThrowingCallable call : calls) {
      assertThatThrownBy(call)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("failed")
          .hasCauseInstanceOf(java.sql.SQLException.class);
    }
  }

  @Test
  void ping_reachableStore_answers() {
    assertThatCode(redrive::ping).doesNotThrowAnyException();
  }

  @Test
  void ping_afterStoreClosed_throwsStoreException() {
    store.close();

    assertThatThrownBy(redrive::ping)
        .isInstanceOf(StoreException.class)
        .hasCauseInstanceOf(java.sql.SQLException.class);
  }
}
