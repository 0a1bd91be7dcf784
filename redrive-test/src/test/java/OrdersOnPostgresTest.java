import io.redrive.message.NewMessage;
import io.redrive.test.MessageMatcher;
import io.redrive.test.RedriveExtension;
import io.redrive.test.TestRedrive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

public final class OrdersOnPostgresTest {
  @RegisterExtension
  static RedriveExtension redrive = RedriveExtension.postgres(TestDatabase.url());

  @Test
  void theEngineRunsInASchemaOfItsOwn(TestRedrive redrive) {
    redrive.queue("orders");
    redrive.engine().enqueue(NewMessage.builder("orders", "placed").payload("{\"id\":1}").build());
    redrive.assertEnqueued("orders", MessageMatcher.type("placed").payload("$.id", 1));
  }
}
