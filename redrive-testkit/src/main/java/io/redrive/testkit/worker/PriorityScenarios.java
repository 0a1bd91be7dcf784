package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.message.NewMessage;
import io.redrive.worker.HandlerResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Priorities end to end: a worker with one slot, started on a backlog of mixed priorities, runs
 * them highest first and in enqueue order within a priority.
 */
public abstract class PriorityScenarios extends WorkerScenarioBase {

  @Test
  void backlog_oneSlot_runsHighestFirstAndFifoWithin() {
    createQueue(fastPolicy());
    List<String> expected = new ArrayList<>();
    List<String> low = new ArrayList<>();
    List<String> middle = new ArrayList<>();
    List<String> high = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      low.add(enqueueAt(0, "p0#" + i));
      middle.add(enqueueAt(5, "p5#" + i));
      high.add(enqueueAt(9, "p9#" + i));
    }
    expected.addAll(high);
    expected.addAll(middle);
    expected.addAll(low);
    List<String> ran = new CopyOnWriteArrayList<>();

    start(
        worker()
            .concurrency(1)
            .handler(
                TYPE,
                ctx -> {
                  ran.add(ctx.message().id());
                  return HandlerResult.complete();
                }));

    await().atMost(AT_MOST).until(() -> ran.size() == expected.size());
    assertThat(ran).containsExactlyElementsOf(expected);
  }

  private String enqueueAt(int priority, String payload) {
    return enqueue(
        NewMessage.builder(QUEUE, TYPE).payload("\"" + payload + "\"").priority(priority).build());
  }
}
