package io.redrive.test;

/**
 * How {@link TestRedrive#drain(String, Drain)} runs a queue: at most {@code maxMessages} handler
 * runs, on the test's thread or a pool of {@code threads}, and whether to follow retries by moving
 * the clock to each scheduled one until every message completed or died. Immutable.
 *
 * @param maxMessages the most handler runs (each attempt counts), at least 1
 * @param threads 1 runs handlers on the calling thread; more runs each leased batch on a pool of
 *     that size (messages of one stream stay in order on one thread)
 * @param followingRetries whether to move the clock to the next scheduled retry whenever nothing is
 *     due
 */
public record Drain(int maxMessages, int threads, boolean followingRetries) {
  /** The most pool threads a drain starts. */
  public static final int MAX_THREADS = 64;

  public Drain {
    if (maxMessages < 1) {
      throw new IllegalArgumentException("maxMessages: must be at least 1, was " + maxMessages);
    }
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException("threads: must be 1-" + MAX_THREADS + ", was " + threads);
    }
  }

  /** Every due message, on the calling thread, without moving the clock. */
  public static Drain defaults() {
    return new Drain(Integer.MAX_VALUE, 1, false);
  }

  /** At most {@code n} handler runs. */
  public Drain atMost(int n) {
    return new Drain(n, threads, followingRetries);
  }

  /** Handlers on a pool of {@code n} threads. */
  public Drain onThreads(int n) {
    return new Drain(maxMessages, n, followingRetries);
  }

  /** Moves the clock to each scheduled retry until every message completed or died. */
  public Drain followRetries() {
    return new Drain(maxMessages, threads, true);
  }
}
