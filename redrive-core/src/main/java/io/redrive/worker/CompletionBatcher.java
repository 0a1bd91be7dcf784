package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.lease.CompleteAllResult;
import io.redrive.lease.LeaseRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit of completions: runner threads queue their completion and one of them (whoever takes
 * the flush lock) completes everything queued in one store call, while the others wait for their
 * answer. Alone, a runner pays one statement as before; under load, many completions share one
 * transaction. Thread-safe.
 */
final class CompletionBatcher {
  private record Pending(String token, String id, CompletableFuture<Boolean> done) {}

  private final Redrive redrive;
  private final ReentrantLock flushing = new ReentrantLock();
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();

  CompletionBatcher(Redrive redrive) {
    this.redrive = redrive;
  }

  /**
   * Completes the lease; true when completed, false when the lease was lost.
   *
   * @throws RuntimeException when the store failed (the lease then expires and is redelivered)
   */
  boolean complete(String token, String id) {
    Pending mine = new Pending(token, id, new CompletableFuture<>());
    queue.add(mine);
    boolean interrupted = false;
    while (!mine.done.isDone()) {
      if (flushing.tryLock()) {
        try {
          // The leader drains everything queued, its own completion included, round after round.
          while (!queue.isEmpty()) {
            flush();
          }
        } finally {
          flushing.unlock();
        }
      } else {
        // A follower sleeps until the leader answers; the timeout only covers a completion queued
        // just as the leader let go of the lock.
        try {
          mine.done.get(20, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          // try to lead the next round
        } catch (InterruptedException e) {
          interrupted = true; // finish the completion first: it is already queued
        } catch (ExecutionException e) {
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return mine.done.join();
  }

  private void flush() {
    List<Pending> batch = new ArrayList<>();
    Pending p;
    while (batch.size() < LeaseRequest.MAX_BATCH && (p = queue.poll()) != null) {
      batch.add(p);
    }
    if (batch.isEmpty()) {
      return;
    }
    try {
      CompleteAllResult result = redrive.completeAll(batch.stream().map(Pending::token).toList());
      Set<String> completed = new HashSet<>(result.completed());
      for (Pending b : batch) {
        b.done.complete(completed.contains(b.id));
      }
    } catch (RuntimeException e) {
      batch.forEach(b -> b.done.completeExceptionally(e));
    }
  }
}
