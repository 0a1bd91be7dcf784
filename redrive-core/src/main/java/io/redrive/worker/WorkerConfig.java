package io.redrive.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.retry.UnregisteredHandlerBackoff;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
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
    MeterRegistry meterRegistry) {

  /** {@code value}, checked positive; the error names {@code field}. */
  static Duration positive(String field, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(field + ": must be positive, was " + value);
    }
    return value;
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
