package io.redrive.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.retry.UnregisteredHandlerBackoff;
import java.time.Duration;
import java.util.Map;

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
    MeterRegistry meterRegistry) {}
