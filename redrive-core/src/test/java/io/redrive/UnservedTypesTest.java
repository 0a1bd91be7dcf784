package io.redrive;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.error.StoreException;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LiveWorker;
import io.redrive.lease.WaitingType;
import io.redrive.store.LiveWorkerParams;
import io.redrive.store.Store;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The engine's halves of "Live workers and unserved types" on a fake store: the alert's gauge is
 * there only while a type is raised, a raise is kept across checks and cleared once served; an
 * untyped live worker serves every type but names none; lease calls are recorded once per interval
 * per key, and a failed record is tried again at the next lease.
 */
class UnservedTypesTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final Duration AFTER = Duration.ofMinutes(5);

  private List<LiveWorker> live = new ArrayList<>();
  private List<WaitingType> waiting = new ArrayList<>();
  private final List<LiveWorkerParams> recorded = new ArrayList<>();
  private boolean reachable = true;

  private Store store() {
    return (Store)
        Proxy.newProxyInstance(
            Store.class.getClassLoader(),
            new Class<?>[] {Store.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "liveWorkers" -> live;
                  case "waitingTypes" -> waiting;
                  case "recordLiveWorker" -> {
                    if (!reachable) {
                      throw new StoreException("database unreachable (test)", "08001", true, null);
                    }
                    recorded.add((LiveWorkerParams) args[0]);
                    yield null;
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final UnservedTypes unserved = new UnservedTypes(store(), AFTER, meters);

  private Gauge gauge(String type) {
    return meters.find("redrive.queue.unserved.types").tags("queue", "q", "type", type).gauge();
  }

  @Test
  void check_raisesWithAGauge_keepsItAcrossChecks_clearsAndRemovesItWhenServed() {
    live.add(new LiveWorker("w-a", "q", Set.of("a"), T0));
    waiting.add(new WaitingType("q", "b", T0.minus(Duration.ofMinutes(6))));

    assertThat(unserved.check(List.of("q"), T0)).extracting(WaitingType::type).containsExactly("b");
    assertThat(gauge("b").value()).isEqualTo(360.0);
    assertThat(unserved.check(List.of("q"), T0.plusSeconds(15))).hasSize(1);
    assertThat(gauge("b").value()).isEqualTo(375.0);

    live.add(new LiveWorker("w-b", "q", Set.of("b"), T0));
    assertThat(unserved.check(List.of("q"), T0.plusSeconds(30))).isEmpty();
    assertThat(unserved.raised()).isEmpty();
    assertThat(gauge("b")).isNull();
  }

  @Test
  void untypedWorker_servesEveryType_butNamesNone() {
    live.add(new LiveWorker("any", "q", Set.of(), T0));
    waiting.add(new WaitingType("q", "b", T0.minus(Duration.ofMinutes(6))));

    assertThat(unserved.read("q", T0).unserved()).isEmpty();
    assertThat(unserved.named("q", "b", T0)).isFalse();
    live.add(new LiveWorker("w-b", "q", Set.of("b"), T0));
    assertThat(unserved.named("q", "b", T0)).isTrue();
  }

  @Test
  void leases_recordedOncePerIntervalPerKey_aFailedRecordTriedAgain() {
    LiveWorkers workers = new LiveWorkers(store());
    LeaseRequest typed = LeaseRequest.of("q", "w", 1).withTypes(Set.of("a"));

    workers.leased(typed, T0);
    workers.leased(typed, T0.plusSeconds(9));
    workers.leased(LeaseRequest.of("q", "w", 1), T0.plusSeconds(9));
    assertThat(recorded).extracting(LiveWorkerParams::types).containsExactly(Set.of("a"), Set.of());

    reachable = false;
    workers.leased(typed, T0.plusSeconds(10));
    reachable = true;
    workers.leased(typed, T0.plusSeconds(11));
    assertThat(recorded).hasSize(3);
    assertThat(recorded.get(2).now()).isEqualTo(T0.plusSeconds(11));
  }
}
