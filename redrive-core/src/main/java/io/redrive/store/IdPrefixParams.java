package io.redrive.store;

/**
 * Input of {@link Store#findIdsByPrefix}: up to {@code limit} ids starting with {@code prefix}; a
 * non-null {@code queue} limits them to that queue's messages (a caller limited to some queues must
 * not learn other queues' ids), null means every queue.
 */
public record IdPrefixParams(String prefix, String queue, int limit) {

  /** Ids in every queue. */
  public static IdPrefixParams anyQueue(String prefix, int limit) {
    return new IdPrefixParams(prefix, null, limit);
  }
}
