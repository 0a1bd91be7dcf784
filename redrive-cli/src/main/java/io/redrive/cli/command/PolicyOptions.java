package io.redrive.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import java.util.Locale;
import picocli.CommandLine.Option;

/** The queue policy flags of {@code queue create} and {@code queue update}, as the API's fields. */
final class PolicyOptions {
  @Option(
      names = "--max-attempts",
      paramLabel = "N",
      description = "Deliveries before a message is dead (1-10000).")
  Integer maxAttempts;

  @Option(
      names = "--lease-timeout",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "How long a lease lasts without renewal (30s).")
  String leaseTimeout;

  @Option(
      names = "--backoff",
      paramLabel = "SPEC",
      converter = Converters.BackoffValue.class,
      description =
          "exponential:INITIAL:MULTIPLIER:MAX (exponential:1m:2:1h) or fixed:COOLDOWN (fixed:30s).")
  ObjectNode backoff;

  @Option(
      names = "--backoff-jitter",
      paramLabel = "JITTER",
      description =
          "Spread of each retry delay d: NONE (exact), FULL (0..d) or EQUAL (d/2..d); alone on"
              + " update it keeps the delays.")
  String backoffJitter;

  @Option(
      names = "--retry",
      paramLabel = "N:COOLDOWN",
      converter = Converters.RetryValue.class,
      description =
          "Short form: N total runs with a fixed cooldown (3:30s); not with --max-attempts/--backoff.")
  ObjectNode retry;

  @Option(
      names = "--expire-after",
      paramLabel = "DURATION",
      description = "Messages die as EXPIRED this long after enqueue (update: 'none' clears it).")
  String expireAfter;

  @Option(
      names = "--dead-letter-queue",
      paramLabel = "QUEUE",
      description = "Move dead messages to this queue (implies --dead-letter move).")
  String deadLetterQueue;

  @Option(
      names = "--dead-letter",
      paramLabel = "MODE",
      description = "keep (dead in place), move (with --dead-letter-queue) or discard.")
  String deadLetter;

  @Option(
      names = "--stream-policy",
      paramLabel = "POLICY",
      description =
          "HOLD, HALT or RELEASE: what later messages of a stream do when its head fails.")
  String streamPolicy;

  @Option(
      names = "--max-crashes",
      paramLabel = "N",
      description =
          "Crash-loop breaker: a message whose lease ran out on N distinct workers is poisoned"
              + " (0 turns it off, the default).")
  Integer maxCrashes;

  @Option(
      names = "--completed-retention",
      paramLabel = "DURATION",
      converter = Converters.RetentionValue.class,
      description =
          "How long completed messages keep their story (24h; 0s keeps none; at most 90d);"
              + " without it the engine's default (update: 'default' returns to it).")
  String completedRetention;

  @Option(
      names = "--default-priority",
      paramLabel = "N",
      description =
          "The priority (0-9, higher served first) of messages enqueued without one (default 0).")
  Integer defaultPriority;

  @Option(
      names = "--priority-aging",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description =
          "The head start one step of priority is worth (1s to 1d, default 1m): a low-priority"
              + " message that waited 9 agings goes before a fresh priority-9 one; applies to"
              + " messages enqueued after the change.")
  String priorityAging;

  @Option(
      names = "--max-running",
      paramLabel = "N",
      description = "Flow limit: most messages of the queue leased at once, on all nodes.")
  Integer maxRunning;

  @Option(
      names = "--max-running-per-key",
      paramLabel = "N",
      description = "Flow limit: most messages of one limit key leased at once (1: singleton).")
  Integer maxRunningPerKey;

  @Option(
      names = "--rate",
      paramLabel = "N/PERIOD",
      description = "Flow limit: most leases of the queue per period (100/1m).")
  String rate;

  @Option(
      names = "--rate-per-key",
      paramLabel = "N/PERIOD",
      description = "Flow limit: most leases of one limit key per period (10/1s).")
  String ratePerKey;

  @Option(
      names = "--no-limits",
      description = "Update: remove every flow limit (before the limit flags given with it).")
  boolean noLimits;

  @Option(
      names = "--circuit-failures",
      paramLabel = "N",
      description =
          "Circuit breaker: failures naming one dependency that open its circuit (default 5); any"
              + " --circuit-* flag turns it on, the ones not given take their defaults.")
  Integer circuitFailures;

  @Option(
      names = "--circuit-window",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Circuit breaker: how far back failures count (default 30s).")
  String circuitWindow;

  @Option(
      names = "--circuit-probe",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Circuit breaker: wait before each probe, and each half-open wave (10s).")
  String circuitProbe;

  @Option(
      names = "--circuit-waves",
      paramLabel = "N,N,...",
      description =
          "Circuit breaker: messages let through per probe interval when half-open (1,5,25).")
  String circuitWaves;

  @Option(
      names = "--circuit-learn",
      description = "Circuit breaker: name a dependency from a failure that names none.")
  boolean circuitLearn;

  @Option(names = "--no-circuit", description = "Update: turn the circuit breaker off.")
  boolean noCircuit;

  /**
   * Puts the given flags into {@code body}; {@code update} allows clearing with "none" (and going
   * back to the engine's default retention with "default").
   */
  ObjectNode into(ObjectNode body, boolean update) {
    if (retry != null && (maxAttempts != null || backoff != null)) {
      throw CliException.usage("--retry is a short form: give it without --max-attempts/--backoff");
    }
    if (maxAttempts != null) {
      body.put("maxAttempts", maxAttempts);
    }
    if (leaseTimeout != null) {
      body.put("leaseTimeout", leaseTimeout);
    }
    if (backoff != null) {
      body.set("backoff", backoff);
    }
    if (backoffJitter != null) {
      String jitter = backoffJitter.trim().toUpperCase(Locale.ROOT);
      if (!java.util.Set.of("NONE", "FULL", "EQUAL").contains(jitter)) {
        throw CliException.usage(
            "--backoff-jitter: must be one of NONE, FULL, EQUAL, was " + backoffJitter);
      }
      ObjectNode b = backoff != null ? backoff : body.putObject("backoff");
      b.put("jitter", jitter);
    }
    if (retry != null) {
      body.set("retry", retry);
    }
    if (expireAfter != null) {
      String v = expireAfter.trim().toLowerCase(Locale.ROOT);
      if (v.equals("none") || v.equals("off")) {
        if (!update) {
          throw CliException.usage("--expire-after none: only queue update clears a deadline");
        }
        body.putNull("expireAfter");
      } else {
        body.put("expireAfter", Converters.duration(expireAfter));
      }
    }
    if (deadLetter != null) {
      String mode = deadLetter.trim().toLowerCase(Locale.ROOT);
      if (!mode.equals("keep") && !mode.equals("move") && !mode.equals("discard")) {
        throw CliException.usage(
            "--dead-letter: expected keep, move or discard, was \"" + deadLetter + "\"");
      }
      if (mode.equals("move") && deadLetterQueue == null) {
        throw CliException.usage("--dead-letter move needs --dead-letter-queue QUEUE");
      }
      if (!mode.equals("move") && deadLetterQueue != null) {
        throw CliException.usage(
            "--dead-letter-queue moves dead messages: not with --dead-letter " + mode);
      }
      body.put("deadLetter", mode);
    }
    if (deadLetterQueue != null) {
      body.put("deadLetterQueue", deadLetterQueue);
    }
    if (streamPolicy != null) {
      body.put("streamPolicy", streamPolicy.trim().toUpperCase(Locale.ROOT));
    }
    if (maxCrashes != null) {
      body.put("maxCrashes", maxCrashes);
    }
    if (completedRetention != null) {
      if (completedRetention.equals(Converters.RetentionValue.DEFAULT) && !update) {
        throw CliException.usage(
            "--completed-retention default: only queue update returns a queue to the engine's"
                + " default (a queue created without the flag follows it)");
      }
      body.put("completedRetention", completedRetention);
    }
    if (defaultPriority != null) {
      body.put("defaultPriority", defaultPriority);
    }
    if (priorityAging != null) {
      body.put("priorityAging", priorityAging);
    }
    limitsInto(body, update);
    circuitInto(body, update);
    return body;
  }

  /** The circuit flags as the API's {@code circuit} object (null: off, on update). */
  private void circuitInto(ObjectNode body, boolean update) {
    boolean any =
        circuitFailures != null
            || circuitWindow != null
            || circuitProbe != null
            || circuitWaves != null
            || circuitLearn;
    if (noCircuit && (!update || any)) {
      throw CliException.usage("--no-circuit: only on queue update, and alone");
    }
    if (noCircuit) {
      body.putNull("circuit");
    }
    if (!any) {
      return;
    }
    ObjectNode circuit = body.putObject("circuit");
    if (circuitFailures != null) {
      circuit.put("failures", circuitFailures);
    }
    if (circuitWindow != null) {
      circuit.put("window", circuitWindow);
    }
    if (circuitProbe != null) {
      circuit.put("probeInterval", circuitProbe);
    }
    if (circuitWaves != null) {
      var waves = circuit.putArray("waves");
      for (String part : circuitWaves.split(",")) {
        try {
          waves.add(Integer.parseInt(part.trim()));
        } catch (NumberFormatException e) {
          throw CliException.usage(
              "--circuit-waves: must be wave sizes such as 1,5,25, was " + circuitWaves);
        }
      }
    }
    if (circuitLearn) {
      circuit.put("learn", true);
    }
  }

  /** The flow-limit flags as the API's {@code limits} object. */
  private void limitsInto(ObjectNode body, boolean update) {
    if (noLimits && !update) {
      throw CliException.usage("--no-limits: only queue update removes limits");
    }
    boolean any =
        maxRunning != null || maxRunningPerKey != null || rate != null || ratePerKey != null;
    if (noLimits && any) {
      throw CliException.usage(
          "--no-limits: give it alone, then set new limits with another update");
    }
    if (noLimits) {
      body.putNull("limits");
      return;
    }
    if (!any) {
      return;
    }
    ObjectNode limits = body.putObject("limits");
    if (maxRunning != null) {
      limits.put("maxRunning", maxRunning);
    }
    if (maxRunningPerKey != null) {
      limits.put("maxRunningPerKey", maxRunningPerKey);
    }
    if (rate != null) {
      limits.put("rate", rate);
    }
    if (ratePerKey != null) {
      limits.put("ratePerKey", ratePerKey);
    }
  }

  static ObjectNode empty() {
    return ApiClient.object();
  }
}
