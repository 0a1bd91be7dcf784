package io.redrive.workflow;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The orchestrations (by name and version) and activities (by name) a runtime can run. Built once
 * with {@link #builder()}, validated at {@link Builder#build()}, then immutable and thread-safe.
 *
 * <p>Every node of a deployment should register the same set; a node that lacks a name or version
 * an instance needs bounces that instance with the unregistered backoff until one that has it takes
 * it (docs/workflows.md).
 */
public final class WorkflowRegistry {
  private static final int MAX_NAME_LENGTH = 200;

  private final Map<String, Map<String, OrchestrationDefinition>> orchestrations;
  private final Map<String, List<String>> versions;
  private final Map<String, String> defaultVersions;
  private final Map<String, ActivityRegistration> activities;
  private final Set<String> activityQueues;

  private WorkflowRegistry(Builder b) {
    Map<String, Map<String, OrchestrationDefinition>> byName = new TreeMap<>();
    Map<String, List<String>> sortedVersions = new TreeMap<>();
    Map<String, String> defaults = new TreeMap<>();
    for (Map.Entry<String, Map<String, OrchestrationDefinition>> e : b.orchestrations.entrySet()) {
      String name = e.getKey();
      byName.put(name, Map.copyOf(e.getValue()));
      TreeMap<Semver, String> ordered = new TreeMap<>();
      e.getValue().keySet().forEach(v -> ordered.put(Semver.parse(v), v));
      sortedVersions.put(name, List.copyOf(ordered.values()));
      defaults.put(name, b.defaultVersions.getOrDefault(name, ordered.lastEntry().getValue()));
    }
    this.orchestrations = Collections.unmodifiableMap(byName);
    this.versions = Collections.unmodifiableMap(sortedVersions);
    this.defaultVersions = Collections.unmodifiableMap(defaults);
    this.activities = Collections.unmodifiableMap(new TreeMap<>(b.activities));
    TreeSet<String> queues = new TreeSet<>();
    queues.add(WorkflowDefaults.ACTIVITY_QUEUE);
    b.activities.values().forEach(a -> queues.add(a.queue()));
    this.activityQueues = Collections.unmodifiableSortedSet(queues);
  }

  /** A new, empty builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** True when {@code name@version} is registered (that exact version). */
  public boolean hasOrchestration(String name, String version) {
    return orchestration(name, version).isPresent();
  }

  /** The definition of {@code name@version}, or empty when that exact version is not registered. */
  Optional<OrchestrationDefinition> orchestration(String name, String version) {
    if (name == null || version == null) {
      return Optional.empty();
    }
    Map<String, OrchestrationDefinition> byVersion = orchestrations.get(name);
    return byVersion == null ? Optional.empty() : Optional.ofNullable(byVersion.get(version));
  }

  /**
   * The version new instances of {@code name} start on when their starter names none: the one given
   * to {@link Builder#defaultVersion}, else the highest registered (by MAJOR.MINOR.PATCH order).
   * Empty when {@code name} is not registered.
   */
  public Optional<String> defaultVersion(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(defaultVersions.get(name));
  }

  /** The activity registered as {@code name}, or empty. */
  public Optional<ActivityRegistration> activity(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(activities.get(name));
  }

  /** The registered orchestration names, in alphabetical order. */
  public Set<String> orchestrationNames() {
    return Collections.unmodifiableSet(orchestrations.keySet());
  }

  /** The registered versions of {@code name}, lowest first; empty when it is not registered. */
  public List<String> versions(String name) {
    return name == null ? List.of() : versions.getOrDefault(name, List.of());
  }

  /** The registered activity names, in alphabetical order. */
  public Set<String> activityNames() {
    return Collections.unmodifiableSet(activities.keySet());
  }

  /**
   * Every queue the registered activities' messages go to, in alphabetical order; always includes
   * {@link WorkflowDefaults#ACTIVITY_QUEUE}, where a call may send any activity.
   */
  public Set<String> activityQueues() {
    return activityQueues;
  }

  /** For logs: every {@code name@version} and activity name. */
  @Override
  public String toString() {
    List<String> shown = new ArrayList<>();
    versions.forEach((name, vs) -> vs.forEach(v -> shown.add(name + "@" + v)));
    return "WorkflowRegistry[orchestrations=" + shown + " activities=" + activities.keySet() + "]";
  }

  /**
   * Checks the one rule for names and ids: 1–200 characters, not blank, no control characters.
   *
   * @throws IllegalArgumentException naming {@code field} and the value
   */
  static String requireName(String field, String value) {
    if (value == null) {
      throw new IllegalArgumentException(field + ": is required, was null");
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + ": must not be blank, was \"" + value + "\"");
    }
    if (value.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(
          field + ": must be at most 200 characters, was " + value.length());
    }
    if (value.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          field + ": must not contain control characters, was \"" + escape(value) + "\"");
    }
    return value;
  }

  // A message that printed the control characters themselves would break the log line it is in.
  private static String escape(String value) {
    StringBuilder out = new StringBuilder();
    value
        .chars()
        .forEach(
            c -> {
              if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04X", c));
              } else {
                out.append((char) c);
              }
            });
    return out.toString();
  }

  /**
   * Collects registrations; {@link #build()} checks them as a whole. Each registration is checked
   * as it is added, so a mistake points at its line. Not thread-safe.
   */
  public static final class Builder {
    private final Map<String, Map<String, OrchestrationDefinition>> orchestrations =
        new LinkedHashMap<>();
    private final Map<String, String> defaultVersions = new LinkedHashMap<>();
    private final Map<String, ActivityRegistration> activities = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Registers {@code code} as {@code name@version}, reading its input as {@code in} and writing
     * its output as {@code out}.
     *
     * @throws IllegalArgumentException naming the option and value when the name or version is
     *     malformed, or when {@code name@version} is already registered
     */
    public <I, O> Builder orchestration(
        String name, String version, Class<I> in, Class<O> out, Orchestration<I, O> code) {
      return add(new OrchestrationDefinition(name, version, in, out, loose(code)));
    }

    /**
     * As {@link #orchestration(String, String, Class, Class, Orchestration)}, for generic types.
     */
    public <I, O> Builder orchestration(
        String name,
        String version,
        TypeReference<I> in,
        TypeReference<O> out,
        Orchestration<I, O> code) {
      return add(
          new OrchestrationDefinition(
              name,
              version,
              in == null ? null : in.getType(),
              out == null ? null : out.getType(),
              loose(code)));
    }

    /**
     * Registers every orchestration of {@code other} as it is, every version, with the default
     * version of each name: to build a registry around another one (the failure-point explorer
     * wraps a user's activities this way and keeps their orchestrations).
     *
     * @throws IllegalArgumentException when a {@code name@version} of {@code other} is already
     *     registered here
     */
    public Builder orchestrationsOf(WorkflowRegistry other) {
      if (other == null) {
        throw new IllegalArgumentException("orchestrationsOf: registry is required, was null");
      }
      for (Map<String, OrchestrationDefinition> byVersion : other.orchestrations.values()) {
        byVersion.values().forEach(this::add);
      }
      for (String name : other.orchestrations.keySet()) {
        other.defaultVersion(name).ifPresent(v -> defaultVersion(name, v));
      }
      return this;
    }

    /**
     * Registers a definition as it is, e.g. one taken from another registry.
     *
     * @throws IllegalArgumentException when {@code definition} is null or its {@code name@version}
     *     is already registered
     */
    Builder orchestration(OrchestrationDefinition definition) {
      if (definition == null) {
        throw new IllegalArgumentException("orchestration: definition is required, was null");
      }
      return add(definition);
    }

    /**
     * Pins the version new instances of {@code name} start on when their starter names none (by
     * default the highest registered). It must name a registered version by {@link #build()}.
     *
     * @throws IllegalArgumentException naming the option and value when the name or version is
     *     malformed, or when another default was already given for {@code name}
     */
    public Builder defaultVersion(String name, String version) {
      requireName("orchestration name", name);
      Semver.parse("version", version);
      String earlier = defaultVersions.putIfAbsent(name, version);
      if (earlier != null && !earlier.equals(version)) {
        defaultVersions.put(name, earlier);
        throw new IllegalArgumentException(
            "defaultVersion: \""
                + name
                + "\" already defaults to "
                + earlier
                + ", was given "
                + version);
      }
      return this;
    }

    /**
     * Registers {@code code} as activity {@code name} with the default queue, no timeout and the
     * runtime's classifier.
     *
     * @throws IllegalArgumentException naming the option and value when the name is malformed or
     *     already registered
     */
    public <I, O> Builder activity(String name, Class<I> in, Class<O> out, Activity<I, O> code) {
      return activity(ActivityRegistration.of(name, in, out, code));
    }

    /**
     * Registers an activity with its timeout, queue and classifier.
     *
     * @throws IllegalArgumentException when {@code registration} is null or its name is already
     *     registered
     */
    public Builder activity(ActivityRegistration registration) {
      if (registration == null) {
        throw new IllegalArgumentException("activity: registration is required, was null");
      }
      if (activities.putIfAbsent(registration.name(), registration) != null) {
        throw new IllegalArgumentException(
            "activity: \"" + registration.name() + "\" is already registered");
      }
      return this;
    }

    /**
     * The registry of everything added so far. The builder stays usable.
     *
     * @throws IllegalArgumentException when a {@link #defaultVersion} names an orchestration or a
     *     version that is not registered
     */
    public WorkflowRegistry build() {
      defaultVersions.forEach(
          (name, version) -> {
            Map<String, OrchestrationDefinition> byVersion = orchestrations.get(name);
            if (byVersion == null) {
              throw new IllegalArgumentException(
                  "defaultVersion: orchestration \"" + name + "\" is not registered");
            }
            if (!byVersion.containsKey(version)) {
              throw new IllegalArgumentException(
                  "defaultVersion: "
                      + name
                      + "@"
                      + version
                      + " is not registered (registered: "
                      + String.join(", ", byVersion.keySet())
                      + ")");
            }
          });
      return new WorkflowRegistry(this);
    }

    private Builder add(OrchestrationDefinition definition) {
      Map<String, OrchestrationDefinition> byVersion =
          orchestrations.computeIfAbsent(definition.name(), n -> new LinkedHashMap<>());
      if (byVersion.putIfAbsent(definition.version(), definition) != null) {
        throw new IllegalArgumentException(
            "orchestration: "
                + definition.name()
                + "@"
                + definition.version()
                + " is already registered");
      }
      return this;
    }

    // Safe: the runtime only passes what it deserialized as the definition's inputType, which is I.
    @SuppressWarnings("unchecked")
    private static <I, O> Orchestration<Object, Object> loose(Orchestration<I, O> code) {
      return (Orchestration<Object, Object>) (Orchestration<?, ?>) code;
    }
  }
}
