package io.redrive.cli.command;

import io.redrive.cli.client.CliException;
import io.redrive.server.config.WorkflowSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The {@code redrive server} flags of the workflow runtime it runs with {@code --workflows}: each
 * is the kebab-case of its {@code [workflows]} key in redrive.toml and overrides it. A bad value is
 * a usage error naming the flag, given before the store is touched.
 */
public final class WorkflowOptions {
  /** Each {@link WorkflowSettings} field as the flag that sets it, for error messages. */
  private static final Map<String, String> FLAGS =
      Map.ofEntries(
          Map.entry("nodeId", "--node-id"),
          Map.entry("buildId", "--build-id"),
          Map.entry("orchestrationConcurrency", "--orchestration-concurrency"),
          Map.entry("activityConcurrency", "--activity-concurrency"),
          Map.entry("maxAttempts", "--max-attempts"),
          Map.entry("unregisteredBackoff", "--unregistered-backoff"),
          Map.entry("activityQueues", "--activity-queue"),
          Map.entry("maxBatch", "--max-batch"),
          Map.entry("pollInterval", "--poll-interval"),
          Map.entry("activityLeaseTimeout", "--activity-lease-timeout"),
          Map.entry("historyCacheSize", "--history-cache-size"),
          Map.entry("stickyWait", "--sticky-wait"));

  @Option(names = "--node-id", paramLabel = "ID", description = "Workflow node id.")
  String nodeId;

  @Option(names = "--build-id", paramLabel = "ID", description = "Code build the node runs.")
  String buildId;

  @Option(
      names = "--orchestration-concurrency",
      paramLabel = "N",
      description = "Turns run at once (default 4).")
  Integer orchestrationConcurrency;

  @Option(
      names = "--activity-concurrency",
      paramLabel = "N",
      description = "Activities run at once per queue (default 32).")
  Integer activityConcurrency;

  @Option(
      names = "--max-attempts",
      paramLabel = "N",
      description = "Tries of a turn, deliveries of an activity (default 10).")
  Integer maxAttempts;

  @Option(
      names = "--unregistered-backoff",
      paramLabel = "BASE[:MAX]",
      description = "Wait after a try that found no code (default 1s:1m).")
  String unregisteredBackoff;

  @Option(
      names = "--activity-queue",
      paramLabel = "QUEUE",
      description = "Another activity queue to create and serve; repeatable.")
  List<String> activityQueues;

  @Option(
      names = "--max-batch",
      paramLabel = "N",
      description = "Inbox rows one turn takes at most (default 500).")
  Integer maxBatch;

  @Option(
      names = "--poll-interval",
      paramLabel = "DURATION",
      converter = Converters.DurationFlag.class,
      description = "Longest sleep without a wake-up (default 1s).")
  Duration pollInterval;

  @Option(
      names = "--activity-lease-timeout",
      paramLabel = "DURATION",
      converter = Converters.DurationFlag.class,
      description = "Lease on an activity message (default 30s).")
  Duration activityLeaseTimeout;

  @Option(
      names = "--history-cache-size",
      paramLabel = "N",
      description = "Instances whose history the node keeps (default 1000; 0 off).")
  Integer historyCacheSize;

  @Option(
      names = "--sticky-wait",
      paramLabel = "DURATION",
      converter = Converters.DurationFlag.class,
      description = "Wait before taking another node's instance (default 1s; 0s off).")
  Duration stickyWait;

  /** The first flag given, or null when none is. */
  String firstGiven() {
    Object[] values = {
      nodeId, buildId, orchestrationConcurrency, activityConcurrency, maxAttempts,
      unregisteredBackoff, activityQueues, maxBatch, pollInterval, activityLeaseTimeout,
      historyCacheSize, stickyWait
    };
    String[] fields = {
      "nodeId", "buildId", "orchestrationConcurrency", "activityConcurrency", "maxAttempts",
      "unregisteredBackoff", "activityQueues", "maxBatch", "pollInterval", "activityLeaseTimeout",
      "historyCacheSize", "stickyWait"
    };
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        return FLAGS.get(fields[i]);
      }
    }
    return null;
  }

  /** {@code file} (the {@code [workflows]} settings) with the given flags over it. */
  WorkflowSettings over(WorkflowSettings file) {
    Duration base = file.unregisteredBackoffBase();
    Duration max = file.unregisteredBackoffMax();
    if (unregisteredBackoff != null) {
      String[] parts = unregisteredBackoff.split(":", -1);
      if (parts.length > 2) {
        throw CliException.usage(
            "--unregistered-backoff: BASE or BASE:MAX (1s:1m), was \""
                + unregisteredBackoff
                + "\"");
      }
      base = duration(parts[0]);
      max = parts.length == 2 ? duration(parts[1]) : null;
    }
    try {
      return new WorkflowSettings(
          nodeId != null ? nodeId : file.nodeId(),
          buildId != null ? buildId : file.buildId(),
          orchestrationConcurrency != null
              ? orchestrationConcurrency
              : file.orchestrationConcurrency(),
          activityConcurrency != null ? activityConcurrency : file.activityConcurrency(),
          maxAttempts != null ? maxAttempts : file.maxAttempts(),
          base,
          max,
          activityQueues != null ? activityQueues : file.activityQueues(),
          maxBatch != null ? maxBatch : file.maxBatch(),
          pollInterval != null ? pollInterval : file.pollInterval(),
          activityLeaseTimeout != null ? activityLeaseTimeout : file.activityLeaseTimeout(),
          historyCacheSize != null ? historyCacheSize : file.historyCacheSize(),
          stickyWait != null ? stickyWait : file.stickyWait());
    } catch (IllegalArgumentException e) {
      // The file's values were checked as it was read: what fails now came with a flag.
      String message = String.valueOf(e.getMessage());
      int colon = message.indexOf(": ");
      String field = colon < 0 ? "" : message.substring(0, colon).split("\\.")[0];
      String flag = FLAGS.get(field);
      throw CliException.usage(flag == null ? message : flag + message.substring(colon));
    }
  }

  private static Duration duration(String text) {
    try {
      return new Converters.DurationFlag().convert(text);
    } catch (RuntimeException e) {
      throw CliException.usage(
          "--unregistered-backoff: invalid duration \"" + text + "\" (e.g. 500ms, 1s, 1m)");
    }
  }
}
