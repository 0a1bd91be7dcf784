package io.redrive.bench.contender;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.config.DBOSConfig;
import dev.dbos.transact.workflow.Queue;
import dev.dbos.transact.workflow.WorkflowHandle;
import dev.dbos.transact.workflow.WorkflowState;
import dev.dbos.transact.workflow.WorkflowStatus;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * DBOS Transact for Java as the workflow peer: one launched DBOS on one schema of a PostgreSQL
 * database, at its defaults (no admin server, which is off by default anyway). Workflows are
 * started either directly (each runs at once on DBOS's executor) or on a queue of concurrency
 * {@value #QUEUE_CONCURRENCY}, which then also carries a fan-out's parts on a second queue of the
 * same concurrency. Not thread-safe: one benchmark thread starts and awaits.
 */
public final class DbosPeer implements AutoCloseable {
  /** How instances are started. */
  public enum Start {
    /** {@code startWorkflow} without a queue. */
    DIRECT,
    /** Enqueued on a DBOS queue of concurrency {@value DbosPeer#QUEUE_CONCURRENCY}. */
    QUEUE
  }

  /** A queue's global concurrency, as many as Redrive's runtime runs activities at once. */
  public static final int QUEUE_CONCURRENCY = 8;

  private final DBOS dbos;
  private final PeerWorkflows workflows;
  private final StartWorkflowOptions options;

  private DbosPeer(DBOS dbos, PeerWorkflows workflows, StartWorkflowOptions options) {
    this.dbos = dbos;
    this.workflows = workflows;
    this.options = options;
  }

  /**
   * Launches DBOS on {@code schema} of the database at {@code url} (JDBC; DBOS wants the user and
   * password apart, so they are taken from the url's {@code user} and {@code password}), migrating
   * it first as DBOS does at launch.
   */
  public static DbosPeer launch(String url, String schema, Start start) {
    DBOSConfig config =
        DBOSConfig.defaults("redrive-bench")
            .withDatabaseUrl(url)
            .withDbUser(parameter(url, "user", "postgres"))
            .withDbPassword(parameter(url, "password", ""))
            .withDatabaseSchema(schema);
    DBOS dbos = new DBOS(config);
    Queue instances = null;
    Queue parts = null;
    if (start == Start.QUEUE) {
      instances = new Queue("instances").withConcurrency(QUEUE_CONCURRENCY);
      parts = new Queue("parts").withConcurrency(QUEUE_CONCURRENCY);
      dbos.registerQueues(instances, parts);
    }
    DbosWorkflows bodies = new DbosWorkflows(dbos, parts);
    PeerWorkflows proxy = dbos.registerProxy(PeerWorkflows.class, bodies);
    bodies.self(proxy);
    dbos.launch();
    return new DbosPeer(
        dbos,
        proxy,
        instances == null ? new StartWorkflowOptions() : new StartWorkflowOptions(instances));
  }

  private static String parameter(String url, String name, String otherwise) {
    int query = url.indexOf('?');
    if (query >= 0) {
      for (String pair : url.substring(query + 1).split("&")) {
        if (pair.startsWith(name + "=")) {
          return URLDecoder.decode(pair.substring(name.length() + 1), StandardCharsets.UTF_8);
        }
      }
    }
    return otherwise;
  }

  /** Starts {@code instances} of the 3-step workflow ({@code fanOut} 0) or of the fan-out. */
  public List<String> start(int instances, int fanOut) {
    List<String> ids = new ArrayList<>(instances);
    for (int i = 0; i < instances; i++) {
      int n = fanOut == 0 ? i : fanOut;
      WorkflowHandle<Integer, RuntimeException> handle =
          fanOut == 0
              ? dbos.startWorkflow(() -> workflows.sequential(n), options)
              : dbos.startWorkflow(() -> workflows.fanOut(n), options);
      ids.add(handle.workflowId());
    }
    return ids;
  }

  /**
   * Waits for every instance in turn and answers each one's start to end in milliseconds (its
   * stored created and completed times), in the order given.
   */
  public long[] await(List<String> ids) {
    long[] latencies = new long[ids.size()];
    for (int i = 0; i < ids.size(); i++) {
      WorkflowHandle<Integer, RuntimeException> handle = dbos.retrieveWorkflow(ids.get(i));
      handle.getResult();
      WorkflowStatus status = handle.getStatus();
      if (status.status() != WorkflowState.SUCCESS) {
        throw new IllegalStateException("workflow " + ids.get(i) + " ended " + status.status());
      }
      Long end = status.completedAtEpochMs();
      latencies[i] = (end != null ? end : status.updatedAtEpochMs()) - status.createdAtEpochMs();
    }
    return latencies;
  }

  @Override
  public void close() {
    dbos.close();
  }
}
