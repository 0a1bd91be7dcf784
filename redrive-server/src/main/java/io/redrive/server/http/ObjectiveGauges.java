package io.redrive.server.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.redrive.Redrive;
import io.redrive.error.JdbcUrls;
import io.redrive.objective.ObjectiveStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objectives' gauges (docs/engine.md, "Objectives"), tagged by objective and queue: {@code
 * redrive.objective.compliance}, {@code .burn.rate} (also tagged {@code window} 5m or 1h), {@code
 * .budget.remaining} and {@code .exhaustion.seconds} (absent while nothing burns). Refreshed with
 * the depth gauges by {@link ServerMetrics}; an objective deleted drops its rows. Thread-safe when
 * its caller refreshes under one lock, as {@code ServerMetrics} does.
 */
final class ObjectiveGauges {
  private static final Logger log = LoggerFactory.getLogger(ObjectiveGauges.class);

  private final Redrive redrive;
  private final MultiGauge compliance;
  private final MultiGauge burnRate;
  private final MultiGauge budget;
  private final MultiGauge exhaustion;

  ObjectiveGauges(Redrive redrive, MeterRegistry registry) {
    this.redrive = redrive;
    this.compliance =
        MultiGauge.builder("redrive.objective.compliance")
            .description("share of good events over the objective's window (absent: none measured)")
            .register(registry);
    this.burnRate =
        MultiGauge.builder("redrive.objective.burn.rate")
            .description("bad share over the window (5m, 1h) divided by the error budget")
            .register(registry);
    this.budget =
        MultiGauge.builder("redrive.objective.budget.remaining")
            .description("share of the error budget left over the window (below 0: overspent)")
            .register(registry);
    this.exhaustion =
        MultiGauge.builder("redrive.objective.exhaustion.seconds")
            .description("seconds until the error budget is spent at the 5m burn rate")
            .register(registry);
  }

  void refresh() {
    List<ObjectiveStatus> statuses;
    try {
      statuses = redrive.objectives().statuses();
    } catch (RuntimeException e) {
      log.warn("refreshing objective gauges failed: {}", JdbcUrls.mask(e.getMessage()));
      return;
    }
    compliance.register(
        rows(statuses.stream().filter(s -> s.compliance() != null).toList(), s -> s.compliance()),
        true);
    List<MultiGauge.Row<?>> burns = new ArrayList<>();
    for (ObjectiveStatus s : statuses) {
      burns.add(MultiGauge.Row.of(tags(s).and("window", "5m"), s.burnRateShort()));
      burns.add(MultiGauge.Row.of(tags(s).and("window", "1h"), s.burnRateLong()));
    }
    burnRate.register(burns, true);
    budget.register(rows(statuses, ObjectiveStatus::budgetRemaining), true);
    exhaustion.register(
        rows(
            statuses.stream().filter(s -> s.exhaustion() != null).toList(),
            s -> s.exhaustion().toSeconds()),
        true);
  }

  private static List<MultiGauge.Row<?>> rows(
      List<ObjectiveStatus> statuses, ToDoubleFunction<ObjectiveStatus> value) {
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    for (ObjectiveStatus s : statuses) {
      rows.add(MultiGauge.Row.of(tags(s), value.applyAsDouble(s)));
    }
    return rows;
  }

  private static Tags tags(ObjectiveStatus s) {
    return Tags.of("objective", s.objective().name(), "queue", s.objective().queue());
  }
}
