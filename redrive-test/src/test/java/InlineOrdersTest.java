import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.message.NewMessage;
import io.redrive.test.RedriveTest;
import io.redrive.test.TestRedrive;
import io.redrive.worker.HandlerResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

@RedriveTest
public final class InlineOrdersTest {
  @Test
  void inlineModeRunsHandlersBeforeEnqueueReturns(TestRedrive redrive) {
    List<String> steps = new ArrayList<>();
    redrive.handle(
        "orders",
        "placed",
        ctx -> {
          steps.add("order placed");
          redrive.engine().enqueue(NewMessage.builder("emails", "receipt").payload("{}").build());
          return HandlerResult.complete();
        });
    redrive.handle(
        "emails",
        "receipt",
        ctx -> {
          steps.add("receipt sent");
          return HandlerResult.complete();
        });
    redrive.inline(true);

    redrive.engine().enqueue(NewMessage.builder("orders", "placed").payload("{}").build());

    assertThat(steps).containsExactly("order placed", "receipt sent");
    assertThat(redrive.inlineReport().completed()).hasSize(2);
  }
}
