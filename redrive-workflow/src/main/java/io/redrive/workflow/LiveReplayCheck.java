package io.redrive.workflow;

import io.redrive.workflow.ReplayCheckReport.InstanceResult;
import io.redrive.workflow.ReplayCheckReport.Outcome;
import io.redrive.workflow.ReplayCheckReport.PinnedVersion;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.HistoryUnreadableException;
import io.redrive.workflow.replay.Payloads;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of {@link WorkflowReplayer#checkLive}: pages the matching instances through a client,
 * reads each one's current execution and replays it to its frontier with the new build's code. It
 * only reads: nothing is written through the client, and code runs against a copy of the history in
 * memory.
 */
final class LiveReplayCheck {
  private static final int PAGE = 100;
  private static final String UNRESOLVED = "unresolved";

  private final WorkflowRegistry registry;
  private final InstanceReader client;
  private final ReplayCheckOptions options;
  private final Payloads payloads;

  LiveReplayCheck(WorkflowRegistry registry, InstanceReader client, ReplayCheckOptions options) {
    this.registry = registry;
    this.client = client;
    this.options = options;
    this.payloads =
        new Payloads(
            options.objectMapper() != null ? options.objectMapper() : Json.defaultMapper(),
            Integer.MAX_VALUE);
  }

  ReplayCheckReport run() {
    List<InstanceResult> results = new ArrayList<>();
    boolean truncated = false;
    String cursor = null;
    do {
      InstancePage page =
          client.list(
              InstanceQuery.all(PAGE)
                  .withStatuses(options.statuses())
                  .withName(options.name())
                  .withCursor(cursor));
      for (InstanceInfo row : page.instances()) {
        if (!needsCheck(row)) {
          continue;
        }
        if (results.size() == options.limit()) {
          truncated = true;
          break;
        }
        results.add(check(row));
      }
      cursor = truncated ? null : page.nextCursor();
    } while (cursor != null);
    return new ReplayCheckReport(results, pinned(results), truncated);
  }

  /** A FAILED instance runs again only after an operator's retry, which system failures allow. */
  private boolean needsCheck(InstanceInfo row) {
    if (row.status() != InstanceStatus.FAILED) {
      return true;
    }
    return row.failure() == null || row.failure().isSystem();
  }

  private InstanceResult check(InstanceInfo row) {
    int execution = row.executionId();
    List<HistoryEvent> history = new ArrayList<>();
    try {
      for (WorkflowEvent e : client.history(row.id(), execution)) {
        history.add(HistoryEvent.parse(StoreRows.row(e), payloads.mapper()));
      }
    } catch (HistoryUnreadableException e) {
      return result(row, row.version(), execution, Outcome.HISTORY_UNREADABLE, e.getMessage());
    }
    history = HistoryEvent.withoutVoided(history);
    if (history.isEmpty()) {
      // Not started yet: its first turn pins the version the starter asked for, else the default.
      return registration(row, resolve(row, row.version()), execution);
    }
    if (history.get(history.size() - 1).event() instanceof Event.ContinuedAsNew last) {
      // Its next turn starts the next execution from scratch: only the target's code matters.
      String target = last.version();
      return registration(
          row,
          target != null ? target : registry.defaultVersion(row.name()).orElse(null),
          execution + 1);
    }
    String version =
        resolve(
            row,
            row.version() != null
                ? row.version()
                : ((Event.OrchestrationStarted) history.get(0).event()).version());
    if (!registry.hasOrchestration(row.name(), version)) {
      return registration(row, version, execution);
    }
    try {
      ExecutionReplay.replayToFrontier(registry, payloads, execution, version, history);
      return result(row, version, execution, Outcome.OK, null);
    } catch (ReplayMismatchException m) {
      return new InstanceResult(
          row.id(),
          row.name(),
          version,
          row.status(),
          execution,
          outcomeOf(m),
          m.eventId(),
          m.command(),
          m.expected(),
          m.actual(),
          m.getMessage());
    } catch (HistoryUnreadableException | IllegalArgumentException e) {
      return result(row, version, execution, Outcome.HISTORY_UNREADABLE, e.getMessage());
    } catch (OutOfMemoryError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      return result(
          row,
          version,
          execution,
          Outcome.NODE_ERROR,
          "replay threw " + e + " (the runtime abandons such turns, counted, then poisons)");
    }
  }

  /** As the runtime resolves a version no code was ever found for. */
  private String resolve(InstanceInfo row, String version) {
    if (version != null && !UNRESOLVED.equals(version)) {
      return version;
    }
    return row.requestedVersion() != null
        ? row.requestedVersion()
        : registry.defaultVersion(row.name()).orElse(null);
  }

  private InstanceResult registration(InstanceInfo row, String version, int execution) {
    if (registry.hasOrchestration(row.name(), version)) {
      return result(row, version, execution, Outcome.OK, null);
    }
    return result(
        row,
        version,
        execution,
        Outcome.UNREGISTERED,
        PinnedVersion.display(row.name(), version)
            + " is not registered in the new build: its turns would back off and poison");
  }

  private static InstanceResult result(
      InstanceInfo row, String version, int execution, Outcome outcome, String message) {
    return new InstanceResult(
        row.id(),
        row.name(),
        version,
        row.status(),
        execution,
        outcome,
        null,
        null,
        null,
        null,
        message);
  }

  private static Outcome outcomeOf(ReplayMismatchException m) {
    return switch (m.code()) {
      case ReplayMismatchException.UNDECODABLE -> Outcome.UNDECODABLE;
      case ReplayMismatchException.UNREGISTERED -> Outcome.UNREGISTERED;
      default -> Outcome.NONDETERMINISM;
    };
  }

  private List<PinnedVersion> pinned(List<InstanceResult> results) {
    Map<List<String>, Integer> counts = new LinkedHashMap<>();
    for (InstanceResult r : results) {
      counts.merge(Arrays.asList(r.name(), r.version()), 1, Integer::sum);
    }
    List<PinnedVersion> versions = new ArrayList<>();
    counts.forEach(
        (key, n) ->
            versions.add(
                new PinnedVersion(
                    key.get(0), key.get(1), n, registry.hasOrchestration(key.get(0), key.get(1)))));
    versions.sort(
        Comparator.comparing(PinnedVersion::name)
            .thenComparing(PinnedVersion::version, LiveReplayCheck::compareVersions));
    return versions;
  }

  /** Semantic order, versions that are no semver (or none) first. */
  private static int compareVersions(String a, String b) {
    Semver x = semverOrNull(a);
    Semver y = semverOrNull(b);
    if (x == null || y == null) {
      return x == null && y == null
          ? String.valueOf(a).compareTo(String.valueOf(b))
          : (x == null ? -1 : 1);
    }
    return x.compareTo(y);
  }

  private static Semver semverOrNull(String v) {
    try {
      return v == null ? null : Semver.parse(v);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
