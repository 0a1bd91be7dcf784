package io.redrive.testkit.process;

import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.time.DurationText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link WorkerProcess} runs: its worker id, queue, handler behaviour per type and worker
 * settings, turned into command-line arguments and back. Immutable; each {@code with} returns a
 * copy.
 *
 * @param id the worker id (recorded in attempt history)
 * @param queue the queue it leases from
 * @param handlers the behaviour per message type, in registration order
 * @param concurrency handlers running at once
 * @param leaseTimeout lease asked for and renewed, or null for the queue's
 * @param pollMax the longest idle poll interval (the shortest is 20 ms)
 * @param shutdownGrace how long a graceful stop lets handlers finish
 * @param unregisteredBackoff backoff for types it does not handle, or null for the default
 * @param results the file {@link Behaviour#COMPLETE} appends {@link ResultLine}s to, or null
 */
public record WorkerSpec(
    String id,
    String queue,
    Map<String, Behaviour> handlers,
    int concurrency,
    Duration leaseTimeout,
    Duration pollMax,
    Duration shutdownGrace,
    UnregisteredHandlerBackoff unregisteredBackoff,
    Path results) {

  public WorkerSpec {
    handlers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(handlers));
  }

  /**
   * A worker {@code id} on {@code queue}: no handlers yet, concurrency 1, 200 ms poll, 1 s grace.
   */
  public static WorkerSpec of(String id, String queue) {
    return new WorkerSpec(
        id, queue, Map.of(), 1, null, Duration.ofMillis(200), Duration.ofSeconds(1), null, null);
  }

  public WorkerSpec handler(String type, Behaviour behaviour) {
    Map<String, Behaviour> h = new LinkedHashMap<>(handlers);
    h.put(type, behaviour);
    return new WorkerSpec(
        id,
        queue,
        h,
        concurrency,
        leaseTimeout,
        pollMax,
        shutdownGrace,
        unregisteredBackoff,
        results);
  }

  public WorkerSpec withId(String value) {
    return new WorkerSpec(
        value,
        queue,
        handlers,
        concurrency,
        leaseTimeout,
        pollMax,
        shutdownGrace,
        unregisteredBackoff,
        results);
  }

  public WorkerSpec withConcurrency(int value) {
    return new WorkerSpec(
        id,
        queue,
        handlers,
        value,
        leaseTimeout,
        pollMax,
        shutdownGrace,
        unregisteredBackoff,
        results);
  }

  public WorkerSpec withLeaseTimeout(Duration value) {
    return new WorkerSpec(
        id,
        queue,
        handlers,
        concurrency,
        value,
        pollMax,
        shutdownGrace,
        unregisteredBackoff,
        results);
  }

  public WorkerSpec withPollMax(Duration value) {
    return new WorkerSpec(
        id,
        queue,
        handlers,
        concurrency,
        leaseTimeout,
        value,
        shutdownGrace,
        unregisteredBackoff,
        results);
  }

  public WorkerSpec withShutdownGrace(Duration value) {
    return new WorkerSpec(
        id,
        queue,
        handlers,
        concurrency,
        leaseTimeout,
        pollMax,
        value,
        unregisteredBackoff,
        results);
  }

  public WorkerSpec withUnregisteredBackoff(UnregisteredHandlerBackoff value) {
    return new WorkerSpec(
        id, queue, handlers, concurrency, leaseTimeout, pollMax, shutdownGrace, value, results);
  }

  public WorkerSpec withResults(Path value) {
    return new WorkerSpec(
        id,
        queue,
        handlers,
        concurrency,
        leaseTimeout,
        pollMax,
        shutdownGrace,
        unregisteredBackoff,
        value);
  }

  /** The command-line arguments {@link #parse} reads back. */
  public List<String> toArgs() {
    List<String> args = new ArrayList<>();
    args.add("--id=" + id);
    args.add("--queue=" + queue);
    handlers.forEach((type, b) -> args.add("--handler=" + type + ":" + b.arg()));
    args.add("--concurrency=" + concurrency);
    if (leaseTimeout != null) {
      args.add("--lease-timeout=" + leaseTimeout.toMillis() + "ms");
    }
    args.add("--poll-max=" + pollMax.toMillis() + "ms");
    args.add("--shutdown-grace=" + shutdownGrace.toMillis() + "ms");
    if (unregisteredBackoff != null) {
      args.add(
          "--unregistered-backoff="
              + unregisteredBackoff.base().toMillis()
              + "ms,"
              + unregisteredBackoff.maxExponent()
              + ","
              + unregisteredBackoff.max().toMillis()
              + "ms");
    }
    if (results != null) {
      args.add("--results=" + results.toAbsolutePath());
    }
    return args;
  }

  /** Reads arguments made by {@link #toArgs()}. */
  public static WorkerSpec parse(String[] args) {
    WorkerSpec spec = of("unnamed", "unnamed");
    String id = null;
    String queue = null;
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got \"" + arg + "\"");
      }
      String name = arg.substring(2, eq);
      String value = arg.substring(eq + 1);
      switch (name) {
        case "id" -> id = value;
        case "queue" -> queue = value;
        case "handler" -> {
          int colon = value.lastIndexOf(':');
          spec =
              spec.handler(value.substring(0, colon), Behaviour.parse(value.substring(colon + 1)));
        }
        case "concurrency" -> spec = spec.withConcurrency(Integer.parseInt(value));
        case "lease-timeout" -> spec = spec.withLeaseTimeout(DurationText.parse(name, value));
        case "poll-max" -> spec = spec.withPollMax(DurationText.parse(name, value));
        case "shutdown-grace" -> spec = spec.withShutdownGrace(DurationText.parse(name, value));
        case "unregistered-backoff" -> {
          String[] p = value.split(",");
          spec =
              spec.withUnregisteredBackoff(
                  new UnregisteredHandlerBackoff(
                      DurationText.parse(name, p[0]),
                      Integer.parseInt(p[1]),
                      DurationText.parse(name, p[2])));
        }
        case "results" -> spec = spec.withResults(Path.of(value));
        default -> throw new IllegalArgumentException("unknown argument --" + name);
      }
    }
    if (id == null || queue == null) {
      throw new IllegalArgumentException("--id and --queue are required");
    }
    return spec.withId(id).withQueue(queue);
  }

  private WorkerSpec withQueue(String value) {
    return new WorkerSpec(
        id,
        value,
        handlers,
        concurrency,
        leaseTimeout,
        pollMax,
        shutdownGrace,
        unregisteredBackoff,
        results);
  }
}
