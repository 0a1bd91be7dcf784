package io.redrive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.CommitUnknownException;
import io.redrive.error.StoreException;
import io.redrive.store.ReleaseUndeliveredParams;
import io.redrive.store.Store;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine's memory of lost leases whose give-back failed: bounded (oldest forgotten first), kept
 * until a give-back succeeds, retried oldest first and stopping at the first failure.
 */
class LostLeasesTest {
  private final List<String> calls = new ArrayList<>();
  private boolean reachable;

  private Store store() {
    return (Store)
        Proxy.newProxyInstance(
            Store.class.getClassLoader(),
            new Class<?>[] {Store.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("releaseUndelivered")) {
                throw new UnsupportedOperationException(method.getName());
              }
              ReleaseUndeliveredParams p = (ReleaseUndeliveredParams) args[0];
              calls.add(p.queue() + "/" + p.batch());
              if (!reachable) {
                throw new StoreException("database unreachable (test)", "08001", true, null);
              }
              return List.of("id-of-" + p.batch());
            });
  }

  private final LostLeases lost =
      new LostLeases(
          store(), Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC), 3);

  private static CommitUnknownException cut() {
    return new CommitUnknownException("lease: connection lost (test)", "08006", null);
  }

  @Test
  void giveBack_succeeds_remembersNothing() {
    reachable = true;
    CommitUnknownException e = cut();

    lost.giveBack("q", "b1", e);

    assertThat(calls).containsExactly("q/b1");
    assertThat(e.getSuppressed()).isEmpty();
    assertThat(lost.pending()).isZero();
    assertThat(lost.retryPending()).isZero();
    assertThat(calls).hasSize(1);
  }

  @Test
  void giveBack_fails_remembered_andAddedToTheLostLeaseFailure() {
    CommitUnknownException e = cut();

    lost.giveBack("q", "b1", e);

    assertThat(e.getSuppressed()).singleElement().isInstanceOf(StoreException.class);
    assertThat(lost.pending()).isOne();
  }

  @Test
  void retryPending_stillFailing_throwsAndKeepsEverything() {
    lost.giveBack("q", "b1", cut());
    lost.giveBack("q", "b2", cut());
    calls.clear();

    assertThatThrownBy(lost::retryPending).isInstanceOf(StoreException.class);

    assertThat(calls).containsExactly("q/b1");
    assertThat(lost.pending()).isEqualTo(2);
  }

  @Test
  void retryPending_reachableAgain_givesBackOldestFirstAndForgetsThem() {
    lost.giveBack("q", "b1", cut());
    lost.giveBack("r", "b2", cut());
    calls.clear();
    reachable = true;

    assertThat(lost.retryPending()).isEqualTo(2);

    assertThat(calls).containsExactly("q/b1", "r/b2");
    assertThat(lost.pending()).isZero();
  }

  @Test
  void giveBack_pastTheCap_forgetsTheOldest() {
    for (int i = 1; i <= 5; i++) {
      lost.giveBack("q", "b" + i, cut());
    }
    assertThat(lost.pending()).isEqualTo(3);
    calls.clear();
    reachable = true;

    assertThat(lost.retryPending()).isEqualTo(3);

    assertThat(calls).containsExactly("q/b3", "q/b4", "q/b5");
  }
}
