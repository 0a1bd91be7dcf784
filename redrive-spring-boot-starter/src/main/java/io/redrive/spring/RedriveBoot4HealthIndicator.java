package io.redrive.spring;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Redrive's part of the Actuator health on Spring Boot 4, whose health types moved to {@code
 * org.springframework.boot.health.contributor}: the same report as {@link RedriveHealthIndicator}.
 */
final class RedriveBoot4HealthIndicator extends AbstractHealthIndicator {
  private final RedriveHealth health;

  RedriveBoot4HealthIndicator(RedriveHealth health) {
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
