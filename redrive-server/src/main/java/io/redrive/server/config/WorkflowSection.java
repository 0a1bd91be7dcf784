package io.redrive.server.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the {@code [workflows]} table into {@link WorkflowSettings}: types here (a {@link
 * ConfigNode} error names the key), ranges in the record, whose error is moved onto the key it
 * names. A new key is one line in {@link #FIELDS}, one read here and one record component.
 */
final class WorkflowSection {
  static final List<String> FIELDS =
      List.of(
          "nodeId",
          "buildId",
          "orchestrationConcurrency",
          "activityConcurrency",
          "maxAttempts",
          "unregisteredBackoff",
          "activityQueues",
          "maxBatch",
          "pollInterval",
          "activityLeaseTimeout",
          "historyCacheSize",
          "stickyWait");

  private static final List<String> BACKOFF = List.of("base", "max");

  private WorkflowSection() {}

  static WorkflowSettings read(ConfigNode n) {
    if (!n.present()) {
      return WorkflowSettings.defaults();
    }
    n.allowOnly(FIELDS);
    ConfigNode backoff = n.child("unregisteredBackoff");
    if (backoff.present()) {
      backoff.allowOnly(BACKOFF);
    }
    List<String> queues = null;
    if (n.child("activityQueues").present()) {
      queues = new ArrayList<>();
      for (ConfigNode q : n.child("activityQueues").array()) {
        queues.add(q.nonEmptyString());
      }
    }
    try {
      return new WorkflowSettings(
          string(n.child("nodeId")),
          string(n.child("buildId")),
          integer(n.child("orchestrationConcurrency")),
          integer(n.child("activityConcurrency")),
          integer(n.child("maxAttempts")),
          duration(backoff.child("base")),
          duration(backoff.child("max")),
          queues,
          integer(n.child("maxBatch")),
          duration(n.child("pollInterval")),
          duration(n.child("activityLeaseTimeout")),
          integer(n.child("historyCacheSize")),
          duration(n.child("stickyWait")));
    } catch (ConfigException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw n.errorAtField(e);
    }
  }

  private static String string(ConfigNode n) {
    return n.present() ? n.nonEmptyString() : null;
  }

  private static Integer integer(ConfigNode n) {
    return n.present() ? n.anyInt() : null;
  }

  private static Duration duration(ConfigNode n) {
    return n.present() ? n.duration() : null;
  }
}
