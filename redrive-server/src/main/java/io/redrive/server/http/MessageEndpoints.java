package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.PriorityPolicy;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.RequestBodies.EnqueueBody;
import io.redrive.server.http.RequestBodies.NewMessageBody;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Producing and reading messages: enqueue, list, get. {@link MessageActionEndpoints} acts on
 * messages by id, {@link DeadLetterEndpoints} on a queue's messages by filter.
 */
final class MessageEndpoints {
  private final Redrive redrive;
  private final Views views;
  private final VisibleMessages visible;
  private final LineageEndpoints lineage;

  MessageEndpoints(Redrive redrive, Views views) {
    this.redrive = redrive;
    this.views = views;
    this.visible = new VisibleMessages(redrive);
    this.lineage = new LineageEndpoints(redrive);
  }

  List<Route> routes() {
    return List.of(
        Route.of(
            POST,
            "/v1/queues/{name}/messages",
            "Enqueue 1-1000 messages",
            Permission.PRODUCE,
            EnqueueBody.class,
            201,
            Responses.EnqueueResults.class,
            this::enqueue),
        Route.of(
                GET,
                "/v1/queues/{name}/messages",
                "List messages (without history)",
                Permission.VIEW,
                null,
                200,
                Responses.MessagePage.class,
                this::list)
            .withQueryParams(
                "state",
                "stream",
                "type",
                "dedupeKey",
                "reason",
                "deadReason",
                "fingerprint",
                "minAttempts",
                "field",
                "value",
                "after",
                "limit"),
        Route.of(
            GET,
            "/v1/messages/{id}",
            "Get a message with its history (id or unique prefix)",
            Permission.VIEW,
            null,
            200,
            Responses.Message.class,
            this::get));
  }

  private void enqueue(Exchange ex) throws Exception {
    String queue = ex.path("name");
    EnqueueBody body = ex.body(EnqueueBody.class);
    if (body.messages() == null || body.messages().isEmpty()) {
      throw new IllegalArgumentException("messages: at least one message is required");
    }
    List<NewMessage> messages = new ArrayList<>(body.messages().size());
    Map<String, String> trace = RequestTrace.of(ex.context());
    for (int i = 0; i < body.messages().size(); i++) {
      NewMessageBody m = body.messages().get(i);
      String at = "messages[" + i + "].";
      if (m == null) {
        throw new IllegalArgumentException("messages[" + i + "]: a message object is required");
      }
      if (m.priority() != null) {
        PriorityPolicy.requirePriority(at + "priority", m.priority());
      }
      messages.add(
          new NewMessage(
              queue,
              m.type(),
              JsonCodec.payloadText(m.payload()),
              RequestTrace.onto(m.headers(), trace),
              m.stream(),
              RequestBodies.optionalDuration(at + "delay", m.delay()),
              m.dedupeKey(),
              RequestBodies.optionalDuration(at + "expireAfter", m.expireAfter()),
              m.priority(),
              m.limitKey(),
              m.uniqueKey(),
              RequestBodies.onDuplicate(at + "onDuplicate", m.onDuplicate()),
              RequestBodies.optionalDuration(at + "debounce", m.debounce())));
    }
    // No queue lookup first: the store's enqueue reads the queue anyway and answers
    // QUEUE_NOT_FOUND itself, in the same words.
    List<Responses.EnqueueResult> results = new ArrayList<>();
    for (EnqueueResult r : redrive.enqueueBatch(messages)) {
      results.add(new Responses.EnqueueResult(r.id(), r.duplicate(), r.replaced()));
    }
    ex.reply(new Responses.EnqueueResults(results));
  }

  private void list(Exchange ex) {
    String queue = ex.path("name");
    MessageQuery query = MessageQuery.all(queue);
    List<String> states = ex.queryAll("state");
    if (!states.isEmpty()) {
      Set<MessageState> set = EnumSet.noneOf(MessageState.class);
      for (String s : states) {
        for (String part : s.split(",")) {
          set.add(listedState(part.trim()));
        }
      }
      query = query.withStates(set);
    }
    query =
        query
            .withStream(ex.query("stream"))
            .withType(ex.query("type"))
            .withDedupeKey(ex.query("dedupeKey"));
    String reason = ex.query("reason");
    if (reason != null) {
      query = query.withLastFailureReason(FailureReason.parse("reason", reason));
    }
    String deadReason = ex.query("deadReason");
    if (deadReason != null) {
      query = query.withDeadReason(FailureReason.parse("deadReason", deadReason));
    }
    query = query.withFingerprint(ex.query("fingerprint"));
    String minAttempts = ex.query("minAttempts");
    if (minAttempts != null) {
      query = query.withMinAttempts(wholeNumber("minAttempts", minAttempts));
    }
    String field = ex.query("field");
    String value = ex.query("value");
    if (field != null || value != null) {
      if (field == null) {
        throw new IllegalArgumentException(
            "field: give the payload field (order.id) that value is compared with");
      }
      query = query.withPayloadField(field, value);
    }
    query = query.withAfter(ex.query("after"));
    String limit = ex.query("limit");
    if (limit != null) {
      query = query.withLimit(wholeNumber("limit", limit));
    }
    redrive.getQueue(queue);
    MessagePage page = redrive.listMessages(query);
    List<Responses.Message> messages = new ArrayList<>();
    for (Message m : page.messages()) {
      messages.add(views.message(m, false, ex::inScope));
    }
    ex.reply(new Responses.MessagePage(messages, page.next()));
  }

  private void get(Exchange ex) {
    Message m;
    try {
      m = visible.find(ex, ex.path("id"));
    } catch (MessageNotFoundException missing) {
      throw lineage.notFound(ex, ex.path("id"), missing);
    }
    ex.reply(views.message(m, true, ex::inScope));
  }

  /**
   * A state messages are listed in: also COMPLETED, the stories a queue keeps (listed on their own,
   * newest first).
   */
  static MessageState listedState(String text) {
    if ("completed".equalsIgnoreCase(text)) {
      return MessageState.COMPLETED;
    }
    try {
      return state("state", text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "state: unknown state \"" + text + "\" (ready, scheduled, leased, dead or completed)");
    }
  }

  /** A state a message can be dropped in (not COMPLETED: completed ones are not in a queue). */
  static MessageState state(String field, String text) {
    if (text != null) {
      try {
        MessageState s = MessageState.valueOf(text.toUpperCase(Locale.ROOT));
        if (s != MessageState.COMPLETED) {
          return s;
        }
      } catch (IllegalArgumentException e) {
        // fall through to the message naming the field
      }
    }
    throw new IllegalArgumentException(
        field + ": unknown state \"" + text + "\" (ready, scheduled, leased or dead)");
  }

  private static int wholeNumber(String field, String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + ": expected a whole number, was \"" + text + "\"");
    }
  }
}
