package io.redrive.queue;

/**
 * How much of a queue may run, and how fast it may be leased: caps on the messages leased at once
 * (in the whole queue and per limit key) and rates of leasing (in the whole queue and per limit
 * key), exact across every node sharing the store. A message's limit key is given at enqueue
 * ({@code NewMessage.Builder.limitKey}: a tenant, a user, a host); messages without one count
 * toward {@code maxRunning} and {@code rate} only. Every field is optional (null: no such limit).
 *
 * <p>A running message is a LEASED one whose lease has not run out: an expired lease frees its slot
 * at once. A message waiting for a slot or a token is simply not leased (no attempt used).
 *
 * @param maxRunning most messages of the queue leased at once, or null (1–100 000)
 * @param maxRunningPerKey most messages of one limit key leased at once, or null (1–100 000); 1
 *     makes each key a singleton: at most one running, the next waits
 * @param rate most leases per period in the whole queue, or null
 * @param ratePerKey most leases per period of one limit key, or null
 */
public record FlowLimits(Integer maxRunning, Integer maxRunningPerKey, Rate rate, Rate ratePerKey) {

  /** Highest cap on running messages. */
  public static final int MAX_RUNNING = 100_000;

  /** No limits at all. */
  public static final FlowLimits NONE = new FlowLimits(null, null, null, null);

  public FlowLimits {
    requireCap("maxRunning", maxRunning);
    requireCap("maxRunningPerKey", maxRunningPerKey);
  }

  /** At most one running message per limit key. */
  public static FlowLimits singleton() {
    return new FlowLimits(null, 1, null, null);
  }

  /** True when no field limits anything. */
  public boolean isEmpty() {
    return maxRunning == null && maxRunningPerKey == null && rate == null && ratePerKey == null;
  }

  /** These limits with {@code value} as {@code maxRunning} (null: none). */
  public FlowLimits withMaxRunning(Integer value) {
    return new FlowLimits(value, maxRunningPerKey, rate, ratePerKey);
  }

  /** These limits with {@code value} as {@code maxRunningPerKey} (null: none). */
  public FlowLimits withMaxRunningPerKey(Integer value) {
    return new FlowLimits(maxRunning, value, rate, ratePerKey);
  }

  /** These limits with {@code value} as {@code rate} (null: none). */
  public FlowLimits withRate(Rate value) {
    return new FlowLimits(maxRunning, maxRunningPerKey, value, ratePerKey);
  }

  /** These limits with {@code value} as {@code ratePerKey} (null: none). */
  public FlowLimits withRatePerKey(Rate value) {
    return new FlowLimits(maxRunning, maxRunningPerKey, rate, value);
  }

  /** These limits with every non-null field of {@code change} taking its place (a merge). */
  public FlowLimits merge(FlowLimits change) {
    if (change == null) {
      return this;
    }
    return new FlowLimits(
        change.maxRunning != null ? change.maxRunning : maxRunning,
        change.maxRunningPerKey != null ? change.maxRunningPerKey : maxRunningPerKey,
        change.rate != null ? change.rate : rate,
        change.ratePerKey != null ? change.ratePerKey : ratePerKey);
  }

  private static void requireCap(String field, Integer value) {
    if (value != null && (value < 1 || value > MAX_RUNNING)) {
      throw new IllegalArgumentException(
          field + ": must be between 1 and " + MAX_RUNNING + " (or absent: no cap), was " + value);
    }
  }
}
