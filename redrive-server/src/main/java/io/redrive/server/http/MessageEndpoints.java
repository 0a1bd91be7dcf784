package io.redrive.server.http;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.deadletter.DropFilter;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.ImportResult;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.Queue;
import io.redrive.server.auth.AuthException;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.RequestBodies.DropBody;
import io.redrive.server.http.RequestBodies.EnqueueBody;
import io.redrive.server.http.RequestBodies.IdsBody;
import io.redrive.server.http.RequestBodies.ImportBody;
import io.redrive.server.http.RequestBodies.ImportMessageBody;
import io.redrive.server.http.RequestBodies.NewMessageBody;
import io.redrive.server.http.RequestBodies.RedriveBody;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Producing and operating on messages: enqueue, list, get, retry, drop, redrive, import. */
final class MessageEndpoints {
  private final Redrive redrive;
  private final Views views;

  MessageEndpoints(Redrive redrive, Views views) {
    this.redrive = redrive;
    this.views = views;
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
                "reason",
                "deadReason",
                "fingerprint",
                "minAttempts",
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
            this::get),
        Route.of(
            POST,
            "/v1/messages/retry",
            "Retry dead messages in place",
            Permission.ADMIN,
            IdsBody.class,
            200,
            Responses.RetryResult.class,
            this::retryMany),
        Route.of(
            POST,
            "/v1/messages/{id}/retry",
            "Retry one dead message in place",
            Permission.ADMIN,
            null,
            200,
            Responses.Message.class,
            this::retryOne),
        Route.of(
            POST,
            "/v1/messages/{id}/retry-now",
            "Make one scheduled message (waiting for its retry or delay) visible now",
            Permission.ADMIN,
            null,
            200,
            Responses.Message.class,
            this::retryNowOne),
        Route.of(
            POST,
            "/v1/messages/retry-now",
            "Make scheduled messages visible now (others are skipped)",
            Permission.ADMIN,
            IdsBody.class,
            200,
            Responses.RetryResult.class,
            this::retryNowMany),
        Route.of(
            DELETE,
            "/v1/messages/{id}",
            "Drop one message",
            Permission.ADMIN,
            null,
            204,
            null,
            this::dropOne),
        Route.of(
            POST,
            "/v1/messages/drop",
            "Drop messages by id",
            Permission.ADMIN,
            IdsBody.class,
            200,
            Responses.DropResult.class,
            this::dropMany),
        Route.of(
                POST,
                "/v1/queues/{name}/drop",
                "Drop the messages of a queue matching a filter",
                Permission.ADMIN,
                DropBody.class,
                200,
                Responses.DropResult.class,
                this::dropMatching)
            .optionalBody(),
        Route.of(
                POST,
                "/v1/queues/{name}/redrive",
                "Move dead messages out of a dead-letter queue",
                Permission.ADMIN,
                RedriveBody.class,
                200,
                Responses.RedriveResult.class,
                this::redrive)
            .optionalBody()
            .withQueryParams("countRemaining"),
        Route.of(
            POST,
            "/v1/queues/{name}/import",
            "Import messages keyed by sourceId",
            Permission.ADMIN,
            ImportBody.class,
            200,
            Responses.ImportResult.class,
            this::importMessages));
  }

  private void enqueue(Exchange ex) throws Exception {
    String queue = ex.path("name");
    EnqueueBody body = ex.body(EnqueueBody.class);
    if (body.messages() == null || body.messages().isEmpty()) {
      throw new IllegalArgumentException("messages: at least one message is required");
    }
    List<NewMessage> messages = new ArrayList<>(body.messages().size());
    for (int i = 0; i < body.messages().size(); i++) {
      NewMessageBody m = body.messages().get(i);
      String at = "messages[" + i + "].";
      if (m == null) {
        throw new IllegalArgumentException("messages[" + i + "]: a message object is required");
      }
      messages.add(
          new NewMessage(
              queue,
              m.type(),
              JsonCodec.payloadText(m.payload()),
              m.headers(),
              m.stream(),
              RequestBodies.optionalDuration(at + "delay", m.delay()),
              m.dedupeKey(),
              RequestBodies.optionalDuration(at + "expireAfter", m.expireAfter())));
    }
    // No queue lookup first: the store's enqueue reads the queue anyway and answers
    // QUEUE_NOT_FOUND itself, in the same words.
    List<Responses.EnqueueResult> results = new ArrayList<>();
    for (EnqueueResult r : redrive.enqueueBatch(messages)) {
      results.add(new Responses.EnqueueResult(r.id(), r.duplicate()));
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
          set.add(listableState(part.trim()));
        }
      }
      query = query.withStates(set);
    }
    query = query.withStream(ex.query("stream")).withType(ex.query("type"));
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
    Message m = authorizedMessage(ex, ex.path("id"));
    ex.reply(views.message(m, true, ex::inScope));
  }

  private void retryOne(Exchange ex) {
    Message m = authorizedMessage(ex, ex.path("id"));
    ex.reply(views.message(redrive.retry(m.id()), true, ex::inScope));
  }

  private void retryNowOne(Exchange ex) {
    Message m = authorizedMessage(ex, ex.path("id"));
    ex.reply(views.message(redrive.retryNow(m.id(), ex.actor()), true, ex::inScope));
  }

  private void dropOne(Exchange ex) {
    Message m = authorizedMessage(ex, ex.path("id"));
    DropResult r = redrive.drop(List.of(m.id()));
    if (r.dropped().isEmpty()) {
      throw new MessageNotFoundException(m.id());
    }
    ex.noContent();
  }

  private void retryMany(Exchange ex) throws Exception {
    Resolved ids = resolveAll(ex, ex.body(IdsBody.class));
    List<String> retried = List.of();
    List<String> skipped = List.of();
    List<String> notFound = new ArrayList<>(ids.notFound);
    if (!ids.found.isEmpty()) {
      RetryResult r = redrive.retry(List.copyOf(ids.found), ex.actor());
      retried = r.retried();
      skipped = r.skipped();
      notFound.addAll(r.notFound());
    }
    ex.reply(new Responses.RetryResult(retried, skipped, notFound));
  }

  private void retryNowMany(Exchange ex) throws Exception {
    Resolved ids = resolveAll(ex, ex.body(IdsBody.class));
    List<String> retried = List.of();
    List<String> skipped = List.of();
    List<String> notFound = new ArrayList<>(ids.notFound);
    if (!ids.found.isEmpty()) {
      RetryResult r = redrive.retryNow(List.copyOf(ids.found), ex.actor());
      retried = r.retried();
      skipped = r.skipped();
      notFound.addAll(r.notFound());
    }
    ex.reply(new Responses.RetryResult(retried, skipped, notFound));
  }

  private void dropMany(Exchange ex) throws Exception {
    Resolved ids = resolveAll(ex, ex.body(IdsBody.class));
    List<String> dropped = List.of();
    List<String> notFound = new ArrayList<>(ids.notFound);
    if (!ids.found.isEmpty()) {
      DropResult r = redrive.drop(List.copyOf(ids.found));
      dropped = r.dropped();
      notFound.addAll(r.notFound());
    }
    ex.reply(dropResult(dropped, notFound));
  }

  private void dropMatching(Exchange ex) throws Exception {
    String queue = ex.path("name");
    DropBody body = ex.body(DropBody.class);
    if (body == null) {
      body = new DropBody(null, null, null, null, null);
    }
    Set<MessageState> states = null;
    if (body.states() != null) {
      states = EnumSet.noneOf(MessageState.class);
      for (String s : body.states()) {
        states.add(state("states", s));
      }
    }
    DropFilter filter =
        new DropFilter(
            queue,
            states,
            body.type(),
            body.deadReason() == null ? null : FailureReason.parse("deadReason", body.deadReason()),
            body.fingerprint(),
            body.limit() == null ? 1000 : body.limit());
    redrive.getQueue(queue);
    DropResult r = redrive.dropMatching(filter);
    ex.reply(dropResult(r.dropped(), r.notFound()));
  }

  private void redrive(Exchange ex) throws Exception {
    String queue = ex.path("name");
    RedriveBody body = ex.body(RedriveBody.class);
    if (body == null) {
      body = new RedriveBody(null, null, null, null, null, null, null, null, null);
    }
    Set<FailureReason> reasons = null;
    if (body.deadReasons() != null) {
      reasons = EnumSet.noneOf(FailureReason.class);
      for (String r : body.deadReasons()) {
        reasons.add(FailureReason.parse("deadReasons", r));
      }
    }
    Set<String> types = null;
    if (body.types() != null) {
      types = new LinkedHashSet<>();
      for (String t : body.types()) {
        if (t == null || t.isBlank()) {
          throw new IllegalArgumentException("types: a type must not be blank");
        }
        types.add(t);
      }
    }
    RedriveRequest request =
        new RedriveRequest(
            queue,
            body.to(),
            reasons,
            types,
            body.deadSince(),
            body.deadBefore(),
            body.fingerprint(),
            body.ids() == null ? null : new LinkedHashSet<>(body.ids()),
            body.limit() == null ? 1000 : body.limit(),
            Boolean.TRUE.equals(body.dryRun()),
            ex.actor());
    if (body.to() != null) {
      ex.authorizeQueue(body.to());
    }
    boolean count = "true".equals(ex.query("countRemaining"));
    if (!count
        && ex.query("countRemaining") != null
        && !"false".equals(ex.query("countRemaining"))) {
      throw new IllegalArgumentException(
          "countRemaining: expected true or false, was \"" + ex.query("countRemaining") + "\"");
    }
    redrive.getQueue(queue);
    if (ex.scoped() && body.to() == null) {
      refuseMovesOutOfScope(ex, request);
    }
    RedriveResult done = redrive.redrive(request);
    Integer remaining = null;
    if (count) {
      // What a later call could still move, counted server-side (up to RedriveRequest.MAX_LIMIT).
      RedriveRequest rest = request.withDryRun(true).withLimit(RedriveRequest.MAX_LIMIT);
      remaining = redrive.redrive(rest).count();
    }
    ex.reply(Views.redrive(done, remaining, ex::inScope));
  }

  /**
   * A key limited to some queues may move dead letters back to their source queues only when those
   * are in its scope too: it may not write to other queues, nor learn their names from the refusal.
   */
  private void refuseMovesOutOfScope(Exchange ex, RedriveRequest request) {
    for (RedriveResult.Move move : redrive.redrive(request.withDryRun(true)).moves()) {
      if (!ex.inScope(move.toQueue())) {
        throw AuthException.forbidden(
            "key \""
                + ex.actor()
                + "\" may not redrive these messages: some would move back to a queue outside its"
                + " scope; name a queue in its scope as \"to\", or filter them out");
      }
    }
  }

  private void importMessages(Exchange ex) throws Exception {
    String queue = ex.path("name");
    ImportBody body = ex.body(ImportBody.class);
    if (body.messages() == null || body.messages().isEmpty()) {
      throw new IllegalArgumentException("messages: at least one message is required");
    }
    List<ImportMessage> messages = new ArrayList<>();
    for (int i = 0; i < body.messages().size(); i++) {
      ImportMessageBody m = body.messages().get(i);
      if (m == null) {
        throw new IllegalArgumentException("messages[" + i + "]: a message object is required");
      }
      messages.add(
          new ImportMessage(
              m.sourceId(),
              m.sourceQueue(),
              m.type(),
              JsonCodec.payloadText(m.payload()),
              m.headers() == null ? Map.of() : m.headers(),
              m.stream(),
              Boolean.TRUE.equals(m.dead())));
    }
    redrive.getQueue(queue);
    ImportResult r = redrive.importMessages(queue, messages);
    ex.reply(new Responses.ImportResult(r.imported(), r.duplicates()));
  }

  private static Responses.DropResult dropResult(List<String> dropped, List<String> notFound) {
    return new Responses.DropResult(dropped, notFound);
  }

  /**
   * A message by id or unique prefix whose queue the caller may use for the route. A key limited to
   * some queues resolves prefixes among those queues' messages only, and a message elsewhere is not
   * found exactly as a missing one: its id, queue and existence stay hidden.
   */
  private Message authorizedMessage(Exchange ex, String idOrPrefix) {
    if (!ex.scoped()) {
      Message m = redrive.getMessage(redrive.resolveId(idOrPrefix));
      ex.authorizeQueue(m.queue());
      return m;
    }
    List<String> visible = new ArrayList<>();
    for (Queue q : redrive.listQueues()) {
      if (ex.inScope(q.name())) {
        visible.add(q.name());
      }
    }
    Message m = redrive.getMessage(redrive.resolveId(idOrPrefix, visible));
    if (!ex.inScope(m.queue())) {
      // Moved out of scope since the lookup (a redrive): answer as for a missing message.
      throw new MessageNotFoundException(idOrPrefix);
    }
    ex.authorizeQueue(m.queue());
    return m;
  }

  private record Resolved(Set<String> found, List<String> notFound) {}

  /** Resolves every id or prefix first (so an ambiguous one changes nothing) and authorizes. */
  private Resolved resolveAll(Exchange ex, IdsBody body) {
    if (body.ids() == null || body.ids().isEmpty()) {
      throw new IllegalArgumentException("ids: at least one message id is required");
    }
    Set<String> found = new LinkedHashSet<>();
    List<String> notFound = new ArrayList<>();
    for (String id : body.ids()) {
      if (id == null) {
        throw new IllegalArgumentException("ids: an id must not be null");
      }
      try {
        found.add(authorizedMessage(ex, id).id());
      } catch (MessageNotFoundException e) {
        notFound.add(id);
      }
    }
    return new Resolved(found, notFound);
  }

  private static MessageState listableState(String text) {
    return state("state", text);
  }

  private static MessageState state(String field, String text) {
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
