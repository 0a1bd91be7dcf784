package io.redrive.workflow.testkit;

import io.redrive.error.LeaseLostException;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import io.redrive.store.RenewParams;
import io.redrive.store.SettleParams;
import io.redrive.store.Store;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.test.TestClock;
import io.redrive.workflow.testkit.FailurePoint.ActivityCall;
import io.redrive.workflow.testkit.FailurePoint.Kind;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The real store with one failure point injected at its boundary, where a node's death shows: a
 * turn's commit that never arrives, an activity's settle that never arrives, lease renewals that
 * stop. Everything else goes to the real store unchanged.
 */
final class FaultyStore implements InvocationHandler {
  private static final String HEADER_INSTANCE = "wf-instance";
  private static final String HEADER_ACTIVITY = "wf-activity";
  private static final String HEADER_RETRY = "wf-retry";

  private final Object store;
  private final FailurePoint point;
  private final TestClock clock;
  private final Duration activityLease;
  private final UnaryOperator<String> canonical;
  private final Consumer<Instant> leaseLeft;
  private final AtomicInteger commits = new AtomicInteger();
  private final AtomicBoolean fired = new AtomicBoolean();
  private final Map<LeaseToken, Delivery> deliveries = new ConcurrentHashMap<>();
  private final Set<LeaseToken> frozen = ConcurrentHashMap.newKeySet();
  private final Map<ActivityCall, CountDownLatch> settledElsewhere = new ConcurrentHashMap<>();

  private record Delivery(ActivityCall call, int attempt) {}

  FaultyStore(
      Object store,
      FailurePoint point,
      TestClock clock,
      Duration activityLease,
      UnaryOperator<String> canonical,
      Consumer<Instant> leaseLeft) {
    this.store = store;
    this.leaseLeft = leaseLeft;
    this.point = point;
    this.clock = clock;
    this.activityLease = activityLease;
    this.canonical = canonical;
  }

  Store proxy() {
    return (Store)
        Proxy.newProxyInstance(
            Store.class.getClassLoader(), new Class<?>[] {Store.class, WorkflowStore.class}, this);
  }

  /** Turn commits asked for so far (the dropped one included). */
  int commits() {
    return commits.get();
  }

  /** True once the failure point was reached and injected. */
  boolean fired() {
    return fired.get();
  }

  /** Claims the failure point: true only the first time. */
  boolean fire() {
    return fired.compareAndSet(false, true);
  }

  /**
   * Counted down once a delivery of {@code call} other than the frozen one was settled: a stalled
   * delivery goes on only then, so its late settle never shares a batch with the current one.
   */
  CountDownLatch settledElsewhere(ActivityCall call) {
    return settledElsewhere.computeIfAbsent(call, c -> new CountDownLatch(1));
  }

  private void settled(SettleCommand c) {
    Delivery d = deliveries.get(c.token());
    if (d != null && !frozen.contains(c.token())) {
      settledElsewhere(d.call()).countDown();
    }
  }

  /** Stops renewing the lease of {@code call}'s delivery {@code attempt} (its node stalls). */
  void freeze(ActivityCall call, int attempt) {
    deliveries.forEach(
        (token, d) -> {
          if (d.call().equals(call) && d.attempt() == attempt) {
            frozen.add(token);
          }
        });
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "commitTurn" -> {
        int commit = commits.incrementAndGet();
        if (is(Kind.CRASH_BEFORE_COMMIT) && commit == point.commit() && fire()) {
          return null; // the node died: nothing of the turn is written, its lease runs out
        }
      }
      case "leaseReady" -> {
        LeaseResult result = (LeaseResult) call(method, args);
        result.leased().forEach(this::remember);
        return result;
      }
      case "settle", "settleThenLease" -> {
        if (method.getName().equals("settle") && is(Kind.SETTLE_LOST) && !fired()) {
          return settle(method, (SettleParams) args[0]);
        }
        Object result = call(method, args);
        ((SettleParams) args[0]).commands().forEach(this::settled);
        return result;
      }
      case "renewIfLeased" -> {
        LeaseToken token = ((RenewParams) args[0]).token();
        if (frozen.contains(token)) {
          throw new LeaseLostException(token.messageId());
        }
      }
      default -> {}
    }
    return call(method, args);
  }

  private boolean is(Kind kind) {
    return point != null && point.kind() == kind;
  }

  private void remember(LeasedMessage m) {
    String instance = m.headers().get(HEADER_INSTANCE);
    String seq = m.headers().get(HEADER_ACTIVITY);
    if (instance == null || seq == null) {
      return;
    }
    String retry = m.headers().get(HEADER_RETRY);
    deliveries.put(
        LeaseToken.parse(m.token()),
        new Delivery(
            new ActivityCall(
                canonical.apply(instance),
                m.type(),
                Long.parseLong(seq),
                retry == null ? 0 : Integer.parseInt(retry)),
            m.attempt()));
  }

  /** Settles everything but the target activity's result, which is lost on its way. */
  @SuppressWarnings("unchecked")
  private Object settle(Method method, SettleParams params) throws Throwable {
    SettleCommand lost = null;
    List<SettleCommand> rest = new ArrayList<>();
    for (SettleCommand c : params.commands()) {
      Delivery d = deliveries.get(c.token());
      boolean result = c instanceof SettleCommand.Complete || c instanceof SettleCommand.Fail;
      if (lost == null && result && d != null && d.call().equals(point.call()) && fire()) {
        lost = c;
      } else {
        rest.add(c);
      }
    }
    if (lost == null) {
      return call(method, new Object[] {params});
    }
    leaseLeft.accept(clock.instant().plus(activityLease).plusSeconds(1));
    List<Settlement> answers = new ArrayList<>();
    List<Settlement> settled =
        rest.isEmpty()
            ? List.of()
            : (List<Settlement>)
                call(
                    method,
                    new Object[] {
                      new SettleParams(
                          rest, params.now(), params.completionWindow(), params.allOrNothing())
                    });
    int next = 0;
    for (SettleCommand c : params.commands()) {
      answers.add(
          c == lost ? Settlement.lost(c, Settlement.Lost.NOT_CURRENT) : settled.get(next++));
    }
    return answers;
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(store, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
