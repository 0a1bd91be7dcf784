package io.redrive.store.workflow;

import java.util.List;

/**
 * A leased turn (docs/workflows.md): the instance as it was leased, the turn token every later call
 * of the turn names, the turn counter, the batch of inbox rows the turn takes and the current
 * execution's history, and the tries since the instance's last commit that ended without one.
 *
 * @param instance the instance, with this lease
 * @param token the turn token
 * @param attempt counted tries of this batch, this one included (1 for the first)
 * @param batch the visible inbox rows, oldest first
 * @param history the current execution's history, in event order
 * @param turns turn rows written since the last commit (abandons, expired leases), oldest first;
 *     empty on a first try ({@code attempt} 1), which no counted try precedes
 */
public record TurnLease(
    InstanceRow instance,
    String token,
    int attempt,
    List<InboxRow> batch,
    List<HistoryRow> history,
    List<TurnRow> turns) {

  public TurnLease {
    batch = List.copyOf(batch);
    history = List.copyOf(history);
    turns = List.copyOf(turns);
  }
}
