package io.redrive.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.ControllableClock;
import io.redrive.testkit.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SqliteSmokeTest {
  @Test
  void poisonMessage_afterMaxAttempts_movesToDeadLetterQueue() {
    try (TestDatabase db = SqliteFixture.INSTANCE.newDatabase()) {
      ControllableClock clock = ControllableClock.startingAtEpochOfTests();
      Redrive redrive = Redrive.builder(db.openStore()).clock(clock).build();
      redrive.createQueue("dlq");
      redrive.createQueue(
          "work",
          QueuePolicy.defaults().withMaxAttempts(2).withDeadLetter(DeadLetter.moveTo("dlq")));
      String id = redrive.enqueue(NewMessage.builder("work", "t").payload("{}").build()).id();
      for (int i = 1; i <= 2; i++) {
        LeasedMessage m = redrive.lease(LeaseRequest.of("work", "w1", 1)).leased().get(0);
        assertThat(m.attempt()).isEqualTo(i);
        clock.advance(Duration.ofMinutes(1)); // lease expires: the attempt still counts
      }
      var result = redrive.lease(LeaseRequest.of("work", "w1", 1));
      assertThat(result.leased()).isEmpty();
      assertThat(result.poisoned()).containsExactly(id);
      var dead = redrive.listMessages(io.redrive.message.MessageQuery.all("dlq")).messages();
      assertThat(dead).hasSize(1);
      var copy = redrive.getMessage(dead.get(0).id());
      assertThat(copy.state()).isEqualTo(MessageState.DEAD);
      assertThat(copy.sourceId()).isEqualTo(id);
      assertThat(copy.deadReason()).isEqualTo(FailureReason.POISON);
      assertThat(copy.lastError().attempt()).isEqualTo(3);
      assertThat(copy.history())
          .extracting(h -> h.outcome().name())
          .containsExactly("LEASE_EXPIRED", "LEASE_EXPIRED", "POISONED", "DEAD_LETTERED");
      assertThat(redrive.stats("work").total()).isZero();
    }
  }

  @Test
  void failedAttempt_backsOffOneMinute_thenCompletes() {
    try (TestDatabase db = SqliteFixture.INSTANCE.newDatabase()) {
      ControllableClock clock = ControllableClock.startingAtEpochOfTests();
      Redrive redrive = Redrive.builder(db.openStore()).clock(clock).build();
      redrive.createQueue("work");
      redrive.enqueue(NewMessage.builder("work", "t").build());
      LeasedMessage m = redrive.lease(LeaseRequest.of("work", "w1", 1)).leased().get(0);
      redrive.fail(FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "boom"));
      clock.advance(Duration.ofSeconds(59));
      assertThat(redrive.lease(LeaseRequest.of("work", "w1", 1)).leased()).isEmpty();
      clock.advance(Duration.ofSeconds(1));
      LeasedMessage again = redrive.lease(LeaseRequest.of("work", "w1", 1)).leased().get(0);
      assertThat(again.attempt()).isEqualTo(2);
      redrive.complete(again.token());
      assertThat(redrive.stats("work").total()).isZero();
    }
  }
}
