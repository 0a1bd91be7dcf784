package io.redrive;

import io.redrive.message.Lineage;
import io.redrive.message.MessageLink;
import io.redrive.store.Store;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Walks a message's lineage through the store's links: every dead-letter copy names the id it was
 * copied from and the first id of its story, so two reads find every stored message of the story
 * whichever of its ids is asked; the ids in between that are gone are named by the copies made of
 * them. Bounded, so a pathological story (imports of imports) cannot make one call read without
 * end.
 */
final class Lineages {
  /** The most links one lineage lists. */
  static final int MAX_LINKS = 64;

  private final Store store;

  Lineages(Store store) {
    this.store = store;
  }

  Lineage of(String id) {
    Map<String, MessageLink> members = new LinkedHashMap<>();
    for (MessageLink l : store.findLinks(id)) {
      members.put(l.id(), l);
    }
    String root = rootOf(id, members);
    if (root == null) {
      return new Lineage(id, List.of(new Lineage.Link(id, null, null)));
    }
    if (!root.equals(id)) {
      for (MessageLink l : store.findLinks(root)) {
        members.putIfAbsent(l.id(), l);
      }
    }
    return new Lineage(id, chain(root, members));
  }

  /** The first id of the story {@code id} belongs to, or null when nothing leads from it. */
  private static String rootOf(String id, Map<String, MessageLink> members) {
    MessageLink self = members.get(id);
    if (self != null) {
      return self.originId() != null
          ? self.originId()
          : self.sourceId() != null ? self.sourceId() : id;
    }
    for (MessageLink l : members.values()) {
      if (id.equals(l.originId())) {
        return id;
      }
    }
    for (MessageLink l : members.values()) {
      if (id.equals(l.sourceId())) {
        return l.originId() != null ? l.originId() : id;
      }
    }
    return null;
  }

  /** The story from {@code root}, each copy after the id it was copied from. */
  private static List<Lineage.Link> chain(String root, Map<String, MessageLink> members) {
    List<Lineage.Link> links = new ArrayList<>();
    Set<String> listed = new HashSet<>();
    List<MessageLink> left = new ArrayList<>(members.values());
    MessageLink stored = members.get(root);
    links.add(link(root, stored, queueOfGone(root, left)));
    listed.add(root);
    left.removeIf(l -> l.id().equals(root));
    String previous = root;
    while (!left.isEmpty() && links.size() < MAX_LINKS) {
      MessageLink next = null;
      for (MessageLink l : left) {
        if (previous.equals(l.sourceId())) {
          next = l;
          break;
        }
      }
      if (next == null) {
        next = left.get(0); // its source is gone and was no one's copy we still hold
        if (next.sourceId() != null && listed.add(next.sourceId())) {
          links.add(new Lineage.Link(next.sourceId(), next.sourceQueue(), null));
        }
      }
      left.remove(next);
      if (listed.add(next.id())) {
        links.add(link(next.id(), next, null));
      }
      previous = next.id();
    }
    return links;
  }

  /** Where a gone id was: the source queue a copy made of it names, or its origin queue. */
  private static String queueOfGone(String id, List<MessageLink> members) {
    for (MessageLink l : members) {
      if (id.equals(l.sourceId())) {
        return l.sourceQueue();
      }
    }
    for (MessageLink l : members) {
      if (id.equals(l.originId())) {
        return l.originQueue();
      }
    }
    return null;
  }

  private static Lineage.Link link(String id, MessageLink found, String queueWhenGone) {
    return found == null
        ? new Lineage.Link(id, queueWhenGone, null)
        : new Lineage.Link(id, found.queue(), found.state());
  }
}
