package io.redrive.server.ui;

import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.InstanceStatus;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The instance list's filters as the page's form sends them: status, orchestration name, version
 * and a creation time range. Times are ISO instants ({@code 2030-01-01T00:00:00Z}) or what a
 * browser's {@code datetime-local} field sends ({@code 2030-01-01T00:00}), read as UTC. Each error
 * names its field, as the API's do.
 *
 * @param status the one status shown, or null for every status
 * @param name the orchestration, or null
 * @param version the pinned version, or null
 * @param parent only the direct children of this instance, or null (the instance page's link to all
 *     its children)
 * @param since only instances started at or after this time, or null
 * @param before only instances started before this time, or null
 */
public record WorkflowFilters(
    InstanceStatus status,
    String name,
    String version,
    String parent,
    Instant since,
    Instant before) {

  /** The filters of {@code r}'s query string. */
  static WorkflowFilters of(UiRequest r) {
    return new WorkflowFilters(
        status(blankless(r.query("status"))),
        text("name", r.query("name")),
        text("version", r.query("version")),
        text("parent", r.query("parent")),
        time("since", r.query("since")),
        time("before", r.query("before")));
  }

  /** The store query of one page of these filters. */
  InstanceQuery query(int limit, String cursor) {
    Set<InstanceStatus> statuses =
        status == null ? EnumSet.noneOf(InstanceStatus.class) : EnumSet.of(status);
    return InstanceQuery.all(limit)
        .withStatuses(statuses)
        .withName(name)
        .withVersion(version)
        .withParentId(parent)
        .withCreated(since, before)
        .withCursor(cursor);
  }

  /** The filters as query parameters ({@code &status=failed&name=…}), for the paging links. */
  public String params() {
    StringJoiner b = new StringJoiner("");
    add(b, "status", status == null ? null : status.name().toLowerCase(java.util.Locale.ROOT));
    add(b, "name", name);
    add(b, "version", version);
    add(b, "parent", parent);
    add(b, "since", since == null ? null : since.toString());
    add(b, "before", before == null ? null : before.toString());
    return b.toString();
  }

  /** True when any filter is set. */
  public boolean any() {
    return status != null
        || name != null
        || version != null
        || parent != null
        || since != null
        || before != null;
  }

  /** Every status, for the form's choice. */
  public List<String> statuses() {
    List<String> out = new ArrayList<>();
    for (InstanceStatus s : InstanceStatus.values()) {
      out.add(s.name().toLowerCase(java.util.Locale.ROOT));
    }
    return out;
  }

  /** The value the form shows for a time filter (the ISO instant, or empty). */
  public static String shown(Instant t) {
    return t == null ? "" : t.toString();
  }

  private static void add(StringJoiner b, String key, String value) {
    if (value != null) {
      b.add("&" + key + "=" + Fmt.q(value));
    }
  }

  private static String blankless(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  private static InstanceStatus status(String text) {
    if (text == null) {
      return null;
    }
    for (InstanceStatus s : InstanceStatus.values()) {
      if (s.name().equalsIgnoreCase(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "status: unknown status \""
            + text
            + "\" (use pending, running, completed, failed or terminated)");
  }

  private static String text(String field, String value) {
    String v = blankless(value);
    if (v != null && v.length() > 200) {
      throw new IllegalArgumentException(field + ": at most 200 characters, was " + v.length());
    }
    return v;
  }

  private static Instant time(String field, String value) {
    String v = blankless(value);
    if (v == null) {
      return null;
    }
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException notInstant) {
      try {
        // a datetime-local field has no zone: the dashboard shows and reads times in UTC
        return LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            field + ": an ISO-8601 time such as 2030-01-01T00:00:00Z, was \"" + v + "\"");
      }
    }
  }
}
