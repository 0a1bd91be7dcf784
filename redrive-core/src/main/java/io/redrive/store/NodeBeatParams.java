package io.redrive.store;

import java.time.Duration;
import java.time.Instant;

/**
 * Input of {@link Store#beatNode}: engine node {@code node} is alive at {@code now}. When its
 * previous beat is older than {@code staleAfter} (the process was frozen, or could not reach the
 * database), its row starts a new span ({@code alive_since = now}): the row only ever states
 * "continuously alive since". Rows of any node not seen for {@code forgetAfter} are deleted.
 */
public record NodeBeatParams(String node, Instant now, Duration staleAfter, Duration forgetAfter) {
  public NodeBeatParams {
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("node: is required, was " + node);
    }
  }
}
