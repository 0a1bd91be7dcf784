package io.redrive;

import io.redrive.message.Lineage;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.SearchHit;
import io.redrive.store.FindMessageParams;
import io.redrive.store.IdPrefixParams;
import io.redrive.store.ListMessagesParams;
import io.redrive.store.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds messages by any text an operator has at hand: a whole id, the start of one, an id the
 * message had before it moved to a dead-letter queue, or a dedupe key. Each kind is an indexed read
 * (the dedupe key one per queue), so a search costs little whatever the queues hold.
 */
final class MessageSearch {
  /** The most hits one search answers. */
  static final int MAX_HITS = 20;

  private final Store store;

  MessageSearch(Store store) {
    this.store = store;
  }

  List<SearchHit> find(String text, Collection<String> queues, Instant now) {
    Map<String, SearchHit> hits = new LinkedHashMap<>();
    TreeSet<String> visible = new TreeSet<>(queues);
    if (looksLikeId(text)) {
      Optional<Message> exact = store.findMessage(new FindMessageParams(text, now));
      if (exact.isPresent() && visible.contains(exact.get().queue())) {
        add(hits, SearchHit.Match.ID, exact.get().id(), exact.get().queue(), exact.get());
      }
      Lineage lineage = new Lineages(store).of(text);
      lineage
          .current()
          .filter(l -> !l.id().equals(text) && visible.contains(l.queue()))
          .filter(l -> movedFromVisible(lineage, text, visible))
          .ifPresent(
              l ->
                  hits.putIfAbsent(
                      l.id(), new SearchHit(SearchHit.Match.MOVED, l.id(), l.queue(), l.state())));
      if (text.length() >= 4 && hits.isEmpty()) {
        for (String queue : visible) {
          for (String id : store.findIdsByPrefix(new IdPrefixParams(text, queue, MAX_HITS))) {
            hits.putIfAbsent(id, new SearchHit(SearchHit.Match.PREFIX, id, queue, null));
          }
        }
      }
    }
    for (String queue : visible) {
      if (hits.size() >= MAX_HITS) {
        break;
      }
      MessageQuery byKey = MessageQuery.all(queue).withDedupeKey(text).withLimit(1);
      Optional<Message> live =
          store.listMessages(new ListMessagesParams(byKey, now)).messages().stream().findFirst();
      // A key's message may have completed and been kept (the newest such story answers).
      Optional<Message> found =
          live.isPresent()
              ? live
              : store
                  .listMessages(
                      new ListMessagesParams(byKey.withStates(Set.of(MessageState.COMPLETED)), now))
                  .messages()
                  .stream()
                  .findFirst();
      found.ifPresent(m -> add(hits, SearchHit.Match.DEDUPE_KEY, m.id(), queue, m));
    }
    return new ArrayList<>(hits.values()).subList(0, Math.min(MAX_HITS, hits.size()));
  }

  /** The asked id's own link must be in the caller's queues (else it is another queue's id). */
  private static boolean movedFromVisible(Lineage lineage, String id, Collection<String> visible) {
    return lineage.links().stream()
        .anyMatch(l -> l.id().equals(id) && l.queue() != null && visible.contains(l.queue()));
  }

  private static void add(
      Map<String, SearchHit> hits, SearchHit.Match match, String id, String queue, Message m) {
    hits.putIfAbsent(id, new SearchHit(match, id, queue, m.state()));
  }

  /** Ids are lower-case hex with dashes: other text is not worth an id lookup. */
  static boolean looksLikeId(String text) {
    return !text.isEmpty()
        && text.length() <= 64
        && text.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-');
  }
}
