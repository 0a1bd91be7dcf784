package io.redrive.server.http;

import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.deadletter.DropFilter;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.ImportResult;
import io.redrive.deadletter.RedrivePosition;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.deadletter.RedriveResult;
import io.redrive.failure.FailureReason;
import io.redrive.message.MessageState;
import io.redrive.server.auth.AuthException;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.RequestBodies.DropBody;
import io.redrive.server.http.RequestBodies.ImportBody;
import io.redrive.server.http.RequestBodies.ImportMessageBody;
import io.redrive.server.http.RequestBodies.RedriveBody;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Operating on a queue's messages by filter, the HTTP side of {@code io.redrive.deadletter}: drop
 * the matching ones, redrive dead letters out of a dead-letter queue, import messages (dead or not)
 * keyed by their id in another system.
 */
final class DeadLetterEndpoints {
  private final Redrive redrive;

  DeadLetterEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  List<Route> routes() {
    return List.of(
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
        states.add(MessageEndpoints.state("states", s));
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
    ex.reply(new Responses.DropResult(r.dropped(), r.notFound()));
  }

  private void redrive(Exchange ex) throws Exception {
    String queue = ex.path("name");
    RedriveBody body = ex.body(RedriveBody.class);
    if (body == null) {
      body = new RedriveBody(null, null, null, null, null, null, null, null, null, null);
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
            ex.actor(),
            body.position() == null ? null : RedrivePosition.parse("position", body.position()));
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
              Boolean.TRUE.equals(m.dead()),
              m.priority(),
              m.limitKey()));
    }
    redrive.getQueue(queue);
    ImportResult r = redrive.importMessages(queue, messages);
    ex.reply(new Responses.ImportResult(r.imported(), r.duplicates()));
  }
}
