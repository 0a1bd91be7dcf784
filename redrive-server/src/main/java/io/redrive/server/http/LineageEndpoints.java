package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;

import io.redrive.Redrive;
import io.redrive.error.MessageNotFoundException;
import io.redrive.message.Lineage;
import io.redrive.message.SearchHit;
import io.redrive.queue.Queue;
import io.redrive.server.auth.Permission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finding messages: {@code GET /v1/search} (any id, a prefix, a moved id, a dedupe key) and where a
 * message id leads ({@code GET /v1/messages/{id}/lineage}, docs/api.md): the id an enqueue returned
 * finds the message's dead-letter copy, and a copy's id leads back. A key limited to some queues
 * sees only the links in its queues, and only from an id in them: the same wall as for messages,
 * whose source in another queue it sees as "(hidden)".
 */
final class LineageEndpoints {
  private final Redrive redrive;

  LineageEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  List<Route> routes() {
    return List.of(
        Route.of(
                GET,
                "/v1/search",
                "Find messages by id, id prefix, an id they had before a move, or dedupe key",
                Permission.VIEW,
                null,
                200,
                Responses.SearchHits.class,
                this::search)
            .withQueryParams("q"),
        Route.of(
            GET,
            "/v1/messages/{id}/lineage",
            "Where a message id leads across dead-letter moves, both ways",
            Permission.VIEW,
            null,
            200,
            Responses.Lineage.class,
            this::lineage));
  }

  private void lineage(Exchange ex) {
    String id = ex.path("id");
    List<Lineage.Link> links = visibleLinks(ex, redrive.lineage(id));
    Optional<Lineage.Link> current = current(links);
    if (current.isEmpty()) {
      throw new MessageNotFoundException(id);
    }
    ex.reply(
        new Responses.Lineage(
            id,
            links.stream()
                .map(
                    l ->
                        new Responses.LineageLink(
                            l.id(), l.queue(), l.state() == null ? null : l.state().name()))
                .toList(),
            current.get().id()));
  }

  private void search(Exchange ex) {
    String text = ex.query("q");
    List<String> queues = new ArrayList<>();
    for (Queue q : redrive.listQueues()) {
      if (ex.inScope(q.name())) {
        queues.add(q.name());
      }
    }
    List<Responses.SearchHit> hits = new ArrayList<>();
    for (SearchHit h : redrive.search(text, queues)) {
      hits.add(
          new Responses.SearchHit(
              h.match().name(), h.id(), h.queue(), h.state() == null ? null : h.state().name()));
    }
    ex.reply(new Responses.SearchHits(text, hits));
  }

  /**
   * The 404 for {@code id} when its message moved: naming where it is now, if the caller may see
   * that queue; else the plain 404, exactly as for an id that never existed.
   */
  MessageNotFoundException notFound(Exchange ex, String id, MessageNotFoundException missing) {
    Optional<Lineage.Link> current;
    try {
      current = current(visibleLinks(ex, redrive.lineage(id)));
    } catch (IllegalArgumentException notAnId) {
      return missing; // a prefix, say: no lineage to follow
    }
    if (current.isEmpty() || current.get().id().equals(id)) {
      return missing;
    }
    Lineage.Link now = current.get();
    return new MessageNotFoundException(
        id,
        "it moved, and is now \""
            + now.id()
            + "\" in queue \""
            + now.queue()
            + "\" ("
            + now.state()
            + "); GET /v1/messages/"
            + id
            + "/lineage shows the whole story");
  }

  /** The links the caller may see: all for an unscoped key; else those in its queues. */
  private static List<Lineage.Link> visibleLinks(Exchange ex, Lineage lineage) {
    if (!ex.scoped()) {
      return lineage.links();
    }
    List<Lineage.Link> visible =
        lineage.links().stream().filter(l -> l.queue() != null && ex.inScope(l.queue())).toList();
    // The asked id must itself be in the key's queues: that an id of another queue's message
    // became a copy in one of them is what the wall keeps from a scoped key (as "sourceId").
    return visible.stream().anyMatch(l -> l.id().equals(lineage.id())) ? visible : List.of();
  }

  private static Optional<Lineage.Link> current(List<Lineage.Link> links) {
    for (int i = links.size() - 1; i >= 0; i--) {
      if (links.get(i).stored()) {
        return Optional.of(links.get(i));
      }
    }
    return Optional.empty();
  }
}
