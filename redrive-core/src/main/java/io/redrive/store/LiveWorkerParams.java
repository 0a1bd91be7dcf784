package io.redrive.store;

import java.time.Instant;
import java.util.Set;

/**
 * Input of {@link Store#recordLiveWorker}: a lease call of {@code worker} on {@code queue} naming
 * {@code types} (empty: every type) at {@code now}.
 */
public record LiveWorkerParams(String queue, String worker, Set<String> types, Instant now) {
  public LiveWorkerParams {
    types = Set.copyOf(types);
  }
}
