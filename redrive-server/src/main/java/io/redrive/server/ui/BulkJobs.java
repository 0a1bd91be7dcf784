package io.redrive.server.ui;

import io.redrive.Redrive;
import io.redrive.deadletter.DropFilter;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the dashboard's confirmed actions on dead-letter groups (and single messages) in the
 * background, in batches, so a group of 100 000 is retried without one huge transaction or a
 * request that times out; each job's page shows its progress and its result. A job never acts on
 * more messages than its confirmation counted: a message that dies again of the same cause while
 * the group is being retried is not retried a second time by the same job. Jobs live in this
 * server's memory (the last {@value #KEPT} are kept). Thread-safe.
 */
final class BulkJobs implements AutoCloseable {
  /** Messages per batch: one engine call each. */
  static final int BATCH = 500;

  private static final int KEPT = 200;
  private static final Logger log = LoggerFactory.getLogger(BulkJobs.class);

  private final Redrive redrive;
  private final Clock clock;
  private final ExecutorService executor =
      Executors.newFixedThreadPool(
          2,
          r -> {
            Thread t = new Thread(r, "redrive-ui-jobs");
            t.setDaemon(true);
            return t;
          });
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Job> jobs = new LinkedHashMap<>();

  BulkJobs(Redrive redrive) {
    this.redrive = redrive;
    this.clock = redrive.clock();
  }

  /** What to do: {@code op} on a group ({@code fingerprint}) or one message ({@code id}). */
  record Order(
      String op, String queue, String fingerprint, String id, long expected, String actor) {}

  private static final class Job {
    final String id;
    final Order order;
    final Instant startedAt;
    volatile long done;
    volatile long skipped;
    volatile String status = "running";
    volatile String error;
    volatile Instant finishedAt;
    volatile Future<?> future;

    Job(String id, Order order, Instant startedAt) {
      this.id = id;
      this.order = order;
      this.startedAt = startedAt;
    }

    JobView view() {
      return new JobView(
          id,
          order.op(),
          order.queue(),
          order.fingerprint(),
          order.id(),
          order.expected(),
          done,
          skipped,
          status,
          error,
          startedAt,
          finishedAt);
    }
  }

  /** Starts {@code order} and waits up to {@code waitMillis} for it (small jobs end at once). */
  String start(Order order, long waitMillis) {
    byte[] b = new byte[12];
    random.nextBytes(b);
    Job job = new Job(HexFormat.of().formatHex(b), order, clock.instant());
    synchronized (jobs) {
      jobs.put(job.id, job);
      while (jobs.size() > KEPT) {
        String oldest = jobs.keySet().iterator().next();
        jobs.remove(oldest);
      }
    }
    job.future = executor.submit(() -> run(job));
    try {
      job.future.get(waitMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // still running: its page shows the progress
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      // recorded on the job by run()
    }
    return job.id;
  }

  Optional<JobView> find(String id) {
    synchronized (jobs) {
      Job job = jobs.get(id);
      return job == null ? Optional.empty() : Optional.of(job.view());
    }
  }

  private void run(Job job) {
    Order o = job.order;
    try {
      if (o.id() != null) {
        runOne(job);
      } else {
        switch (o.op()) {
          case "retry" -> retryGroup(job);
          case "drop" -> dropGroup(job);
          case "redrive" -> redriveGroup(job);
          default -> throw new IllegalArgumentException("unknown action " + o.op());
        }
      }
      job.status = "done";
    } catch (RuntimeException e) {
      log.warn("dashboard job {} ({} on {}) failed", job.id, o.op(), o.queue(), e);
      job.error = e.getMessage();
      job.status = "failed";
    } finally {
      job.finishedAt = clock.instant();
    }
  }

  private void runOne(Job job) {
    Order o = job.order;
    switch (o.op()) {
      case "retry" -> {
        RetryResult r = redrive.retry(List.of(o.id()), o.actor());
        job.done = r.retried().size();
        job.skipped = r.skipped().size() + r.notFound().size();
      }
      case "drop" -> {
        DropResult r = redrive.drop(List.of(o.id()));
        job.done = r.dropped().size();
        job.skipped = r.notFound().size();
      }
      case "redrive" -> {
        RedriveResult r =
            redrive.redrive(
                RedriveRequest.all(o.queue()).withIds(Set.of(o.id())).withActor(o.actor()));
        job.done = r.count();
        job.skipped = r.skipped().size();
      }
      default -> throw new IllegalArgumentException("unknown action " + o.op());
    }
  }

  private void retryGroup(Job job) {
    Order o = job.order;
    while (job.done + job.skipped < o.expected()) {
      int batch = (int) Math.min(BATCH, o.expected() - job.done - job.skipped);
      List<String> ids = new ArrayList<>();
      MessageQuery q =
          MessageQuery.all(o.queue())
              .withStates(EnumSet.of(MessageState.DEAD))
              .withFingerprint(o.fingerprint())
              .withLimit(batch);
      redrive.listMessages(q).messages().forEach(m -> ids.add(m.id()));
      if (ids.isEmpty()) {
        return;
      }
      RetryResult r = redrive.retry(ids, o.actor());
      job.done += r.retried().size();
      job.skipped += r.skipped().size() + r.notFound().size();
    }
  }

  private void dropGroup(Job job) {
    Order o = job.order;
    while (job.done < o.expected()) {
      int batch = (int) Math.min(BATCH, o.expected() - job.done);
      DropResult r =
          redrive.dropMatching(
              new DropFilter(o.queue(), EnumSet.of(MessageState.DEAD), null, null, batch)
                  .withFingerprint(o.fingerprint()));
      if (r.dropped().isEmpty()) {
        return;
      }
      job.done += r.dropped().size();
    }
  }

  private void redriveGroup(Job job) {
    Order o = job.order;
    while (job.done < o.expected()) {
      int batch = (int) Math.min(BATCH, o.expected() - job.done);
      RedriveResult r =
          redrive.redrive(
              RedriveRequest.all(o.queue())
                  .withFingerprint(o.fingerprint())
                  .withLimit(batch)
                  .withActor(o.actor()));
      job.done += r.count();
      job.skipped = r.skipped().size(); // the same ones each batch: they stay where they are
      if (r.count() == 0) {
        return; // what is left has no source queue to go back to
      }
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
