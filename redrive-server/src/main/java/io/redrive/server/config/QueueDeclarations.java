package io.redrive.server.config;

import io.redrive.Redrive;
import io.redrive.error.ConflictException;
import io.redrive.error.NotFoundException;
import io.redrive.queue.QueueUpdate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings the store in line with the queues declared in {@code redrive.toml}: a missing queue is
 * created with the defaults plus the declared fields, an existing one is updated with the declared
 * fields only (merge: what the file does not say keeps its value). Queues are never deleted.
 *
 * <p>Dead-letter queues are applied before the queues naming them, so a file may declare both in
 * any order. Rules the store checks (the dead-letter queue exists, has no dead-letter queue of its
 * own, ...) are reported as {@link ConfigException} with the path {@code queues.<name>} (or {@code
 * queues.<name>.<field>}). Queues applied before a failing one stay applied.
 */
public final class QueueDeclarations {
  private QueueDeclarations() {}

  /**
   * What {@link #apply} did, for a log line.
   *
   * @param created queues that did not exist
   * @param updated existing queues whose policy changed
   * @param unchanged existing queues that already matched the file
   */
  public record Summary(List<String> created, List<String> updated, List<String> unchanged) {
    public Summary {
      created = List.copyOf(created);
      updated = List.copyOf(updated);
      unchanged = List.copyOf(unchanged);
    }

    /**
     * E.g. {@code declared queues: created [emails.dlq, emails]; updated []; unchanged [orders]}.
     */
    @Override
    public String toString() {
      return "declared queues: created "
          + created
          + "; updated "
          + updated
          + "; unchanged "
          + unchanged;
    }
  }

  /** Applies {@code config.queues()}, naming {@code config.source()} in errors. */
  public static Summary apply(Redrive redrive, ServerConfig config) {
    return apply(redrive, config.queues(), config.source());
  }

  /** Applies {@code queues} (name → declared fields); errors carry no file name. */
  public static Summary apply(Redrive redrive, Map<String, QueueUpdate> queues) {
    return apply(redrive, queues, null);
  }

  private static Summary apply(Redrive redrive, Map<String, QueueUpdate> queues, Path file) {
    List<String> created = new ArrayList<>();
    List<String> updated = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    for (Map.Entry<String, QueueUpdate> e : inOrder(queues).entrySet()) {
      String name = e.getKey();
      String path = ConfigNode.childPath("queues", name);
      try {
        switch (redrive.declareQueue(name, e.getValue()).outcome()) {
          case CREATED -> created.add(name);
          case UPDATED -> updated.add(name);
          case UNCHANGED -> unchanged.add(name);
        }
      } catch (IllegalArgumentException | ConflictException | NotFoundException ex) {
        throw error(file, path, ex);
      }
    }
    return new Summary(created, updated, unchanged);
  }

  /**
   * Queues that move dead messages to another declared queue come after the others; file order
   * otherwise. Chains are refused when the file is loaded, so one level is enough.
   */
  static Map<String, QueueUpdate> inOrder(Map<String, QueueUpdate> queues) {
    Map<String, QueueUpdate> first = new LinkedHashMap<>();
    Map<String, QueueUpdate> then = new LinkedHashMap<>();
    for (Map.Entry<String, QueueUpdate> e : queues.entrySet()) {
      String target = QueueSettings.moveTarget(e.getValue());
      if (target != null && queues.containsKey(target)) {
        then.put(e.getKey(), e.getValue());
      } else {
        first.put(e.getKey(), e.getValue());
      }
    }
    first.putAll(then);
    return first;
  }

  private static ConfigException error(Path file, String path, RuntimeException e) {
    String message = String.valueOf(e.getMessage());
    String problem = ConfigNode.withoutField(message);
    if (problem.equals(message) || !(e instanceof IllegalArgumentException)) {
      return new ConfigException(file, path, message, e);
    }
    String field = message.substring(0, message.length() - problem.length() - 2);
    return new ConfigException(file, path + "." + field, problem, e);
  }
}
