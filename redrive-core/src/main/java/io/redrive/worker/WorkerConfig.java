package io.redrive.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.lease.LeaseRequest;
import io.redrive.retry.UnregisteredHandlerBackoff;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A worker's validated, sealed settings (see {@link Worker.Builder} for each one's meaning). */
record WorkerConfig(
    String queue,
    String id,
    Map<String, HandlerRegistration> handlers,
    int concurrency,
    int batchSize,
    Duration leaseTimeout,
    Duration maxRenewal,
    Duration pollMin,
    Duration pollMax,
    Duration shutdownGrace,
    Duration depthInterval,
    UnregisteredHandlerBackoff unregisteredBackoff,
    FailureClassifier classifier,
    MeterRegistry meterRegistry,
    Set<String> leaseTypes) {

  /** {@code value}, checked positive; the error names {@code field}. */
  static Duration positive(String field, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(field + ": must be positive, was " + value);
    }
    return value;
  }

  /** {@code value}, checked zero or positive; the error names {@code field}. */
  static Duration notNegative(String field, Duration value) {
    if (value == null || value.isNegative()) {
      throw new IllegalArgumentException(field + ": must be zero or positive, was " + value);
    }
    return value;
  }

  /** {@code value}, checked between 1 and 1000; the error names {@code field}. */
  static int upTo1000(String field, int value) {
    if (value < 1 || value > 1000) {
      throw new IllegalArgumentException(field + ": must be between 1 and 1000, was " + value);
    }
    return value;
  }

  /**
   * The types a worker leases: its handlers' when it leases only those, else every (empty); unset
   * ({@code null}) leases only its handlers' when there are at most {@link LeaseRequest#MAX_TYPES}.
   */
  static Set<String> leaseTypes(Boolean onlyHandled, Set<String> handled) {
    if (onlyHandled == null ? handled.size() > LeaseRequest.MAX_TYPES : !onlyHandled) {
      return Set.of();
    }
    if (handled.size() > LeaseRequest.MAX_TYPES) {
      throw new IllegalArgumentException(
          "leaseOnlyHandledTypes: at most "
              + LeaseRequest.MAX_TYPES
              + " handlers, was "
              + handled.size());
    }
    return Set.copyOf(handled);
  }

  /** host-pid-xxxx: unique enough to tell workers apart in history and logs. */
  static String defaultId() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      host = "localhost";
    }
    return host
        + "-"
        + ProcessHandle.current().pid()
        + "-"
        + UUID.randomUUID().toString().substring(0, 4);
  }
}
