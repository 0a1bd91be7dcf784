package io.redrive.server.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.HttpStatus;
import io.redrive.Redrive;
import io.redrive.deadletter.Fingerprint;
import io.redrive.error.MessageNotFoundException;
import io.redrive.lease.LeaseHolder;
import io.redrive.message.Lineage;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.SearchHit;
import io.redrive.queue.Queue;
import io.redrive.queue.ThroughputPoint;
import io.redrive.server.auth.Permission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The dashboard's read pages (overview, queue, message list, message) and the queue switches
 * (pause, resume). Each page reads through the engine's public API and shows only the queues the
 * principal's scope includes; a queue outside it answers as missing, as the API does.
 */
final class Pages {
  // Trailing text makes it not JSON: "x" <b> must show as stored, not as the string "x".
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final int PAGE_SIZE = 50;

  private final Redrive redrive;
  private final Dashboard dashboard;

  Pages(Redrive redrive, Dashboard dashboard) {
    this.redrive = redrive;
    this.dashboard = dashboard;
  }

  void register(Dashboard.Routes routes) {
    routes.add("GET", Dashboard.ROOT, this::overview);
    routes.add("GET", Dashboard.ROOT + "/queues/{queue}", this::queue);
    routes.add("GET", Dashboard.ROOT + "/queues/{queue}/messages", this::messages);
    routes.add("POST", Dashboard.ROOT + "/queues/{queue}/pause", r -> pause(r, true));
    routes.add("POST", Dashboard.ROOT + "/queues/{queue}/resume", r -> pause(r, false));
    routes.add(
        "POST",
        Dashboard.ROOT + "/queues/{queue}/circuits/{dependency}/open",
        r -> circuit(r, true));
    routes.add(
        "POST",
        Dashboard.ROOT + "/queues/{queue}/circuits/{dependency}/close",
        r -> circuit(r, false));
    routes.add("GET", Dashboard.ROOT + "/messages/{id}", this::message);
    routes.add("GET", Dashboard.ROOT + "/search", this::search);
    routes.add("GET", Dashboard.ROOT + "/workers", this::workers);
  }

  private void overview(UiRequest r) {
    ChartRange range = ChartRange.of(r);
    List<QueueLine> lines = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Queue q : redrive.listQueues()) {
      if (r.principal().mayAccess(q.name())) {
        lines.add(new QueueLine(q, redrive.stats(q.name())));
        names.add(q.name());
      }
    }
    List<ThroughputPoint> throughput =
        r.principal().queues().isEmpty()
            ? redrive.throughput(null, range.window())
            : redrive.throughputOf(names, range.window());
    dashboard.page(
        r,
        "overview.jte",
        "Queues",
        new OverviewView(
            lines,
            ThroughputView.of(range, throughput),
            ObjectivesCard.of(redrive, r.principal()::mayAccess, null),
            redrive.unservedTypes().stream()
                .filter(t -> r.principal().mayAccess(t.queue()))
                .toList()));
  }

  /** The queue named in the path, when the principal may see it (else it answers as missing). */
  private Queue queueOf(UiRequest r) {
    String name = r.path("queue");
    if (!r.principal().mayAccess(name)) {
      throw new io.redrive.error.QueueNotFoundException(name);
    }
    return redrive.getQueue(name);
  }

  private void queue(UiRequest r) {
    ChartRange range = ChartRange.of(r);
    Queue q = queueOf(r);
    MessagePage candidates =
        redrive.listMessages(
            MessageQuery.all(q.name())
                .withStates(EnumSet.of(MessageState.READY, MessageState.SCHEDULED))
                .withMinAttempts(Math.max(0, q.policy().maxAttempts() - 1))
                .withLimit(QueueView.CANDIDATES));
    dashboard.page(
        r,
        "queue.jte",
        "Queue " + q.name(),
        new QueueView(
            q,
            redrive.stats(q.name()),
            r.may(Permission.ADMIN, q.name()),
            ThroughputView.of(range, redrive.throughput(q.name(), range.window())),
            candidates.messages(),
            candidates.next() != null,
            q.policy().completedRetention() != null
                ? q.policy().completedRetention()
                : redrive.completedRetention(),
            redrive.flowStatus(q.name()),
            ObjectivesCard.of(redrive, r.principal()::mayAccess, q.name()),
            redrive.queueWorkers(q.name()).unserved(),
            q.policy().circuit() == null ? List.of() : redrive.circuits(q.name())));
  }

  private void messages(UiRequest r) {
    Queue q = queueOf(r);
    String stateText = r.query("state");
    MessageState state = null;
    if (stateText != null && !stateText.isBlank()) {
      try {
        state = MessageState.valueOf(stateText.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "state: unknown state \""
                + stateText
                + "\" (use one of "
                + List.of(MessageState.values())
                + ")");
      }
    }
    Paging paging = Paging.of(r, "after", "back");
    MessageQuery query = MessageQuery.all(q.name()).withLimit(PAGE_SIZE).withAfter(paging.after());
    if (state != null) {
      query = query.withStates(EnumSet.of(state));
    }
    String fingerprint = r.query("fingerprint");
    if (fingerprint != null && !fingerprint.isBlank()) {
      query = query.withFingerprint(Fingerprint.requireKey("fingerprint", fingerprint));
    }
    String type = blankToNull(r.query("type"));
    if (type != null) {
      query = query.withType(type);
    }
    // A blank form field means "no filter"; a value without a field is refused by PayloadField.
    String field = blankToNull(r.query("field"));
    String value = r.query("value");
    if (field != null || (value != null && !value.isEmpty())) {
      query = query.withPayloadField(field, value == null ? "" : value);
    }
    MessagePage page = redrive.listMessages(query);
    dashboard.page(
        r,
        "messages.jte",
        "Messages of " + q.name(),
        MessagesView.of(
            q,
            state,
            fingerprint,
            type,
            query.payloadField(),
            page,
            paging,
            r.principal()::mayAccess));
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }

  private void pause(UiRequest r, boolean pause) {
    Queue q = queueOf(r);
    r.require(Permission.ADMIN, q.name());
    if (pause) {
      redrive.pauseQueue(q.name());
    } else {
      redrive.resumeQueue(q.name());
    }
    r.ctx().redirect(Dashboard.ROOT + "/queues/" + Fmt.seg(q.name()), HttpStatus.SEE_OTHER);
  }

  private void circuit(UiRequest r, boolean open) {
    Queue q = queueOf(r);
    r.require(Permission.ADMIN, q.name());
    redrive.setCircuit(q.name(), r.path("dependency"), open);
    r.ctx().redirect(Dashboard.ROOT + "/queues/" + Fmt.seg(q.name()), HttpStatus.SEE_OTHER);
  }

  private void message(UiRequest r) {
    String id = r.path("id");
    Message m;
    try {
      m = redrive.getMessage(id);
    } catch (MessageNotFoundException missing) {
      // The id an enqueue returned is gone once the message moved: go where it is now.
      Optional<Lineage.Link> now =
          visibleLineage(r, id).stream().filter(Lineage.Link::stored).reduce((a, b) -> b);
      if (now.isEmpty() || now.get().id().equals(id)) {
        throw missing;
      }
      r.ctx()
          .redirect(
              Dashboard.ROOT + "/messages/" + Fmt.seg(now.get().id()) + "?movedFrom=" + Fmt.q(id),
              HttpStatus.SEE_OTHER);
      return;
    }
    if (!r.principal().mayAccess(m.queue())) {
      throw new MessageNotFoundException(id);
    }
    String movedFrom = r.query("movedFrom");
    List<Lineage.Link> lineage =
        m.sourceId() == null && movedFrom == null ? List.of() : visibleLineage(r, m.id());
    String payload = m.payload();
    boolean json = false;
    try {
      JsonNode tree = JSON.readTree(payload);
      if (tree != null) {
        payload = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
        json = true;
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not JSON: shown as stored
    }
    List<TimelineRow> timeline = new ArrayList<>();
    for (var e : m.history()) {
      timeline.add(TimelineRow.of(e));
    }
    dashboard.page(
        r,
        "message.jte",
        "Message " + m.id(),
        new MessageView(
            m,
            payload,
            json,
            timeline,
            r.may(Permission.ADMIN, m.queue()),
            lineage,
            lineage.stream().anyMatch(l -> l.id().equals(movedFrom)) ? movedFrom : null));
  }

  /**
   * The links of {@code id}'s lineage the viewer may see: those in its queues, and none at all when
   * the asked id is another queue's (the wall the API keeps too).
   */
  private List<Lineage.Link> visibleLineage(UiRequest r, String id) {
    Lineage lineage = redrive.lineage(id);
    List<Lineage.Link> visible =
        lineage.links().stream()
            .filter(l -> l.queue() != null && r.principal().mayAccess(l.queue()))
            .toList();
    return visible.stream().anyMatch(l -> l.id().equals(id)) ? visible : List.of();
  }

  /**
   * {@code /ui/workers}: who holds leases now, read queue by queue in the viewer's scope only, so a
   * key limited to some queues never sees another queue's workers (as {@code GET /v1/workers}).
   */
  private void workers(UiRequest r) {
    List<LeaseHolder> holders = new ArrayList<>();
    for (Queue q : redrive.listQueues()) {
      if (r.principal().mayAccess(q.name())) {
        try {
          holders.addAll(redrive.leaseHolders(q.name()));
        } catch (io.redrive.error.QueueNotFoundException gone) {
          // deleted since it was listed: nothing held there
        }
      }
    }
    dashboard.page(r, "workers.jte", "Workers", WorkersView.of(holders));
  }

  /** {@code /ui/search?q=}: one hit opens its message, several are listed, none says so. */
  private void search(UiRequest r) {
    String q = r.query("q");
    if (q == null || q.isBlank()) {
      throw new IllegalArgumentException("q: type an id, an id prefix or a dedupe key");
    }
    List<String> queues =
        redrive.listQueues().stream()
            .map(Queue::name)
            .filter(n -> r.principal().mayAccess(n))
            .toList();
    List<SearchHit> hits = redrive.search(q, queues);
    if (hits.size() == 1) {
      SearchHit hit = hits.get(0);
      r.ctx()
          .redirect(
              Dashboard.ROOT
                  + "/messages/"
                  + Fmt.seg(hit.id())
                  + (hit.match() == SearchHit.Match.MOVED ? "?movedFrom=" + Fmt.q(q.strip()) : ""),
              HttpStatus.SEE_OTHER);
      return;
    }
    dashboard.page(r, "search.jte", "Search", new SearchView(q.strip(), hits));
  }
}
