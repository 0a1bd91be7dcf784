package io.redrive.server.http;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.error.MessageNotFoundException;
import io.redrive.message.Message;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.RequestBodies.IdsBody;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Operating on messages named by id or unique prefix: retry (dead ones), retry now (scheduled ones)
 * and drop, one at a time or many per call.
 */
final class MessageActionEndpoints {
  private final Redrive redrive;
  private final Views views;
  private final VisibleMessages visible;

  MessageActionEndpoints(Redrive redrive, Views views) {
    this.redrive = redrive;
    this.views = views;
    this.visible = new VisibleMessages(redrive);
  }

  List<Route> routes() {
    return List.of(
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
            this::dropMany));
  }

  private void retryOne(Exchange ex) {
    Message m = visible.find(ex, ex.path("id"));
    ex.reply(views.message(redrive.retry(m.id()), true, ex::inScope));
  }

  private void retryNowOne(Exchange ex) {
    Message m = visible.find(ex, ex.path("id"));
    ex.reply(views.message(redrive.retryNow(m.id(), ex.actor()), true, ex::inScope));
  }

  private void dropOne(Exchange ex) {
    Message m = visible.find(ex, ex.path("id"));
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
    ex.reply(new Responses.DropResult(dropped, notFound));
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
        found.add(visible.find(ex, id).id());
      } catch (MessageNotFoundException e) {
        notFound.add(id);
      }
    }
    return new Resolved(found, notFound);
  }
}
