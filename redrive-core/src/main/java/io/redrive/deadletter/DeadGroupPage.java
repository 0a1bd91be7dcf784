package io.redrive.deadletter;

import java.util.List;

/**
 * One page of dead-letter groups.
 *
 * @param groups the groups, largest first
 * @param nextOffset the offset of the next page, or null when this is the last
 */
public record DeadGroupPage(List<DeadGroup> groups, Integer nextOffset) {
  public DeadGroupPage {
    groups = List.copyOf(groups);
  }
}
