import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.testkit.ExplorationReport;
import io.redrive.workflow.testkit.ExploredRun;
import io.redrive.workflow.testkit.WorkflowTestkit;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

public final class PaymentFailurePointsTest {
  /** A payment provider stand-in: balances by account, and charges by idempotency key. */
  static final class Bank {
    final Map<String, Integer> balances = new ConcurrentHashMap<>();
    final Map<String, Integer> byKey = new ConcurrentHashMap<>();

    int charge(String account, int cents) {
      return balances.merge(account, 10_000 - cents, (balance, first) -> balance - cents);
    }

    int chargeOnce(String idempotencyKey, String account, int cents) {
      return byKey.computeIfAbsent(idempotencyKey, key -> charge(account, cents));
    }
  }

  static WorkflowRegistry payment(Bank bank, boolean idempotent) {
    return WorkflowRegistry.builder()
        .orchestration(
            "payment",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, cents) -> {
              int balance = ctx.callActivity("charge", cents, Integer.class).await();
              ctx.createTimer(Duration.ofDays(1)).await();
              return "balance " + balance;
            })
        .activity(
            "charge",
            Integer.class,
            Integer.class,
            (ctx, cents) ->
                idempotent
                    ? bank.chargeOnce(ctx.idempotencyKey(), ctx.instanceId(), cents)
                    : bank.charge(ctx.instanceId(), cents))
        .build();
  }

  @Test
  void chargeWithoutIdempotencyKey_isFoundChargingTwice() {
    Bank bank = new Bank();
    ExplorationReport report = WorkflowTestkit.explore(payment(bank, false), "payment", 4200);

    assertThat(report.clean().output()).isEqualTo("\"balance 5800\"");
    assertThat(report.differences())
        .extracting(run -> run.point().describe() + ": " + run.output())
        .containsExactly("settle lost after activity charge#1: \"balance 1600\"");
    assertThat(report.runs())
        .filteredOn(run -> bank.balances.get(run.instanceId()) != 5800)
        .extracting(run -> run.point().describe())
        .containsExactly(
            "settle lost after activity charge#1", "lease expired during activity charge#1");
  }

  @Test
  void chargeWithIdempotencyKey_survivesEveryFailurePoint() {
    Bank bank = new Bank();
    ExplorationReport report = WorkflowTestkit.explore(payment(bank, true), "payment", 4200);

    assertThat(report.runs()).hasSize(5).allMatch(ExploredRun::injected); // 3 turns, 2 x charge
    assertThat(report.differences()).as(report.toText()).isEmpty();
    assertThat(report.maxHandlerRuns()).containsEntry("charge", 2); // it did run again
    for (ExploredRun run : report.runs()) {
      assertThat(bank.balances.get(run.instanceId())).as(run.point().describe()).isEqualTo(5800);
    }
  }
}
