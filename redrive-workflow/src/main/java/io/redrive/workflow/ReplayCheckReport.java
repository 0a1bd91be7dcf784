package io.redrive.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link WorkflowReplayer#checkLive} found: one result per checked instance, and the {@code
 * name@version} the checked instances are pinned to, with whether the new build still registers
 * each (docs/workflows.md, "Replay check before a deploy"). Immutable.
 *
 * <p>As JSON ({@link #toJson()}; field names are stable, every field is always present):
 *
 * <pre>{@code
 * {"ok":false,"checked":20,"breaking":5,"truncated":false,
 *  "instances":[{"id":"order-7","name":"order","version":"1.0.0","status":"RUNNING",
 *                "execution":1,"outcome":"NONDETERMINISM","eventId":5,"command":2,
 *                "expected":"ACTIVITY_SCHEDULED charge","actual":"ACTIVITY_SCHEDULED refund",
 *                "message":"nondeterminism: order-7 execution 1 command #2: ..."}, ...],
 *  "versions":[{"name":"order","version":"1.0.0","instances":17,"registered":true}, ...]}
 * }</pre>
 *
 * @param instances the checked instances, in the order the client listed them (newest first)
 * @param versions the pinned {@code name@version}s of the checked instances, by name then version
 * @param truncated true when more instances matched than the check's limit let it check
 */
public record ReplayCheckReport(
    List<InstanceResult> instances, List<PinnedVersion> versions, boolean truncated) {

  private static final ObjectMapper MAPPER = Json.defaultMapper();

  public ReplayCheckReport {
    instances = List.copyOf(instances);
    versions = List.copyOf(versions);
  }

  /** How one instance's current execution replayed on the new build. */
  public enum Outcome {
    /** It replayed to its frontier: the new build runs its next turn. */
    OK,
    /** The code issued other commands than history has: its turns would bounce, then poison. */
    NONDETERMINISM,
    /** A recorded payload no longer decodes into the code's types: bounce, then poison. */
    UNDECODABLE,
    /** The new build lacks its {@code name@version}: back off, then poison. */
    UNREGISTERED,
    /** A stored history event cannot be read (on any build): bounce, then poison. */
    HISTORY_UNREADABLE,
    /** The code threw an {@link Error} while replaying (e.g. a {@code LinkageError}). */
    NODE_ERROR;

    /** True for every outcome but OK: the instance would break on the new build. */
    public boolean breaks() {
      return this != OK;
    }
  }

  /**
   * One checked instance.
   *
   * @param id the instance
   * @param name its orchestration
   * @param version the version its next turn runs (its pinned one; for an instance that has not
   *     pinned one yet, or continues as new, the one the new build would pick), or null when none
   * @param status its status when it was listed
   * @param execution the execution replayed
   * @param outcome how it replayed
   * @param eventId the history event where code and history parted, or null
   * @param command the command number where they parted, or null
   * @param expected what history has there (e.g. {@code ACTIVITY_SCHEDULED charge}), or null
   * @param actual what the new code did instead, or null
   * @param message the whole finding in one line, or null for OK
   */
  public record InstanceResult(
      String id,
      String name,
      String version,
      InstanceStatus status,
      int execution,
      Outcome outcome,
      Integer eventId,
      Long command,
      String expected,
      String actual,
      String message) {

    /** True when the instance would break on the new build. */
    public boolean breaks() {
      return outcome.breaks();
    }

    /** {@code name@version}. */
    public String pinned() {
      return PinnedVersion.display(name, version);
    }
  }

  /**
   * A {@code name@version} that checked instances are pinned to.
   *
   * @param name the orchestration
   * @param version the version, or null when the new build would pick none
   * @param instances how many checked instances are pinned to it
   * @param registered whether the new build registers it; if not, those instances would back off
   *     and poison
   */
  public record PinnedVersion(String name, String version, int instances, boolean registered) {
    /** {@code name@version}. */
    public String pinned() {
      return display(name, version);
    }

    static String display(String name, String version) {
      return name + "@" + (version == null ? "(none)" : version);
    }
  }

  /** How many instances were checked. */
  public int checked() {
    return instances.size();
  }

  /** The instances that would break on the new build, in report order. */
  public List<InstanceResult> breaking() {
    return instances.stream().filter(InstanceResult::breaks).toList();
  }

  /** True when no checked instance would break (a truncated check says so only for those). */
  public boolean ok() {
    return instances.stream().noneMatch(InstanceResult::breaks);
  }

  /**
   * The report for people: a summary line, one line per instance that would break, then the pinned
   * versions with a warning for each the new build no longer registers.
   */
  public String toText() {
    List<InstanceResult> breaking = breaking();
    StringBuilder b = new StringBuilder();
    b.append("replay check: ")
        .append(checked())
        .append(checked() == 1 ? " instance" : " instances")
        .append(" checked, ")
        .append(breaking.size())
        .append(" would break")
        .append(truncated ? " (more matched than the limit; not all were checked)" : "")
        .append('\n');
    for (InstanceResult r : breaking) {
      b.append(String.format(Locale.ROOT, "%-18s %s %s", r.outcome(), r.id(), r.pinned()));
      b.append(" execution ").append(r.execution());
      if (r.eventId() != null || r.command() != null) {
        b.append(" at");
        if (r.eventId() != null) {
          b.append(" event #").append(r.eventId());
        }
        if (r.command() != null) {
          b.append(
              r.eventId() != null ? " (command #" + r.command() + ")" : " command #" + r.command());
        }
      }
      if (r.expected() != null) {
        b.append(": history has ").append(r.expected()).append(", code issued ").append(r.actual());
      } else if (r.message() != null) {
        b.append(": ").append(r.message());
      }
      b.append('\n');
    }
    if (!versions.isEmpty()) {
      b.append("pinned versions:\n");
      int width = versions.stream().mapToInt(v -> v.pinned().length()).max().orElse(0);
      for (PinnedVersion v : versions) {
        b.append(
            String.format(
                Locale.ROOT,
                "  %-" + width + "s %6d %s",
                v.pinned(),
                v.instances(),
                v.instances() == 1 ? "instance" : "instances"));
        if (!v.registered()) {
          b.append("  NOT REGISTERED: ")
              .append(v.instances())
              .append(v.instances() == 1 ? " instance" : " instances")
              .append(" pinned to ")
              .append(v.pinned())
              .append(" would back off and poison");
        }
        b.append('\n');
      }
    }
    return b.toString();
  }

  /** The report as JSON (the shape in this type's description). */
  public String toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("ok", ok());
    root.put("checked", checked());
    root.put("breaking", breaking().size());
    root.put("truncated", truncated);
    ArrayNode list = root.putArray("instances");
    for (InstanceResult r : instances) {
      ObjectNode n = list.addObject();
      n.put("id", r.id());
      n.put("name", r.name());
      n.put("version", r.version());
      n.put("status", r.status() == null ? null : r.status().name());
      n.put("execution", r.execution());
      n.put("outcome", r.outcome().name());
      n.put("eventId", r.eventId());
      n.put("command", r.command());
      n.put("expected", r.expected());
      n.put("actual", r.actual());
      n.put("message", r.message());
    }
    ArrayNode pinned = root.putArray("versions");
    for (PinnedVersion v : versions) {
      ObjectNode n = pinned.addObject();
      n.put("name", v.name());
      n.put("version", v.version());
      n.put("instances", v.instances());
      n.put("registered", v.registered());
    }
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A report read back from {@link #toJson()} (e.g. one a server sent).
   *
   * @throws IllegalArgumentException when the text is not such a report
   */
  public static ReplayCheckReport fromJson(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "replay check report: not JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (root == null || !root.path("instances").isArray() || !root.path("versions").isArray()) {
      throw new IllegalArgumentException(
          "replay check report: needs the arrays \"instances\" and \"versions\"");
    }
    try {
      List<InstanceResult> instances = new ArrayList<>();
      for (JsonNode n : root.get("instances")) {
        instances.add(
            new InstanceResult(
                text(n, "id"),
                text(n, "name"),
                text(n, "version"),
                n.hasNonNull("status") ? InstanceStatus.valueOf(n.get("status").asText()) : null,
                n.path("execution").asInt(),
                Outcome.valueOf(n.path("outcome").asText()),
                n.hasNonNull("eventId") ? n.get("eventId").asInt() : null,
                n.hasNonNull("command") ? n.get("command").asLong() : null,
                text(n, "expected"),
                text(n, "actual"),
                text(n, "message")));
      }
      List<PinnedVersion> versions = new ArrayList<>();
      for (JsonNode n : root.get("versions")) {
        versions.add(
            new PinnedVersion(
                text(n, "name"),
                text(n, "version"),
                n.path("instances").asInt(),
                n.path("registered").asBoolean()));
      }
      return new ReplayCheckReport(instances, versions, root.path("truncated").asBoolean());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("replay check report: " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode n, String field) {
    return n.hasNonNull(field) ? n.get(field).asText() : null;
  }
}
