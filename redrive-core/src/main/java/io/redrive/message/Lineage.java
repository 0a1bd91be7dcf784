package io.redrive.message;

import java.util.List;
import java.util.Optional;

/**
 * Where an id leads: a message that died is copied into its dead-letter queue under a new id, so
 * the id an enqueue returned is gone from the store once the message has moved. A lineage lists the
 * ids of one message's story, oldest first: the ids it had before each move (those no longer stored
 * have no state), the id asked for, and the copies made of it since.
 *
 * @param id the id asked for
 * @param links oldest first; the asked-for id is among them
 */
public record Lineage(String id, List<Link> links) {
  public Lineage {
    links = List.copyOf(links);
  }

  /**
   * One id of the story.
   *
   * @param queue the queue it is (or, when gone, was) in; null when unknown
   * @param state its state while stored; null once it is gone (moved, completed or dropped)
   */
  public record Link(String id, String queue, MessageState state) {
    /** True while a message with this id is stored. */
    public boolean stored() {
      return state != null;
    }
  }

  /** True when no stored message has or had this id, as far as the store can tell. */
  public boolean unknown() {
    return links.stream().noneMatch(Link::stored) && links.size() <= 1;
  }

  /** The newest stored link: where the message is now, if anywhere. */
  public Optional<Link> current() {
    for (int i = links.size() - 1; i >= 0; i--) {
      if (links.get(i).stored()) {
        return Optional.of(links.get(i));
      }
    }
    return Optional.empty();
  }
}
