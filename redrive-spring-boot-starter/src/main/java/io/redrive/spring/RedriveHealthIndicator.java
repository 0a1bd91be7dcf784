package io.redrive.spring;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Redrive's part of the Actuator health ({@code /actuator/health}) on Spring Boot 3: what {@link
 * RedriveHealth} reports; DOWN with the error when the store cannot be reached.
 */
final class RedriveHealthIndicator extends AbstractHealthIndicator {
  private final RedriveHealth health;

  RedriveHealthIndicator(RedriveHealth health) {
    super("Redrive health check failed");
    this.health = health;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    RedriveHealth.Report report = health.check();
    builder.withDetails(report.details());
    if (report.up()) {
      builder.up();
    } else {
      builder.down();
    }
  }
}
