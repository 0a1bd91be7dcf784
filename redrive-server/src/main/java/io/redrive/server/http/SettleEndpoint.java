package io.redrive.server.http;

import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.RequestBodies.SettleBody;
import io.redrive.server.http.RequestBodies.SettleItemBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /v1/leases/settle}: many settles of any kinds (complete, fail, abandon, release) in
 * one transaction, for an HTTP worker's group commit, answered one by one: a lost lease is an
 * answer ({@code lost}), not an error. Each token's queue is learnt by a narrow read and checked
 * against the key first; a token outside the key's queues is answered NOT_FOUND and never settled,
 * the same answer as a message that does not exist.
 */
final class SettleEndpoint {
  private final Redrive redrive;

  SettleEndpoint(Redrive redrive) {
    this.redrive = redrive;
  }

  Route route() {
    return Route.of(
        POST,
        "/v1/leases/settle",
        "Settle many leases (complete, fail, abandon, release) in one transaction",
        Permission.CONSUME,
        SettleBody.class,
        200,
        Responses.SettlementList.class,
        this::settle);
  }

  private void settle(Exchange ex) throws Exception {
    SettleBody body = ex.body(SettleBody.class);
    if (body.settles() == null || body.settles().isEmpty()) {
      throw new IllegalArgumentException("settles: at least one settle is required");
    }
    List<SettleCommand> commands = new ArrayList<>(body.settles().size());
    for (int i = 0; i < body.settles().size(); i++) {
      commands.add(command("settles[" + i + "].", body.settles().get(i)));
    }
    Responses.Settlement[] answers = new Responses.Settlement[commands.size()];
    List<SettleCommand> allowed = new ArrayList<>(commands.size());
    List<Integer> at = new ArrayList<>(commands.size());
    for (int i = 0; i < commands.size(); i++) {
      SettleCommand c = commands.get(i);
      Optional<String> queue = redrive.queueOf(c.messageId());
      if (queue.isPresent() && !ex.inScope(queue.get())) {
        answers[i] = lost(c, Settlement.Lost.NOT_FOUND);
        continue;
      }
      queue.ifPresent(ex::authorizeQueue);
      allowed.add(c); // a gone message may be a repeated complete: the answer names its queue
      at.add(i);
    }
    if (!allowed.isEmpty()) {
      List<Settlement> settled = redrive.settle(allowed);
      for (int k = 0; k < settled.size(); k++) {
        answers[at.get(k)] = answer(ex, settled.get(k));
      }
    }
    ex.reply(new Responses.SettlementList(List.of(answers)));
  }

  private static Responses.Settlement answer(Exchange ex, Settlement s) {
    if (!s.settled()) {
      return lost(s.command(), s.lost());
    }
    String queue = s.result().queue();
    if (s.result().repeated() && queue != null) {
      if (!ex.inScope(queue)) {
        return lost(s.command(), Settlement.Lost.NOT_FOUND);
      }
      ex.authorizeQueue(queue);
    }
    return new Responses.Settlement(
        s.command().messageId(), null, Views.settle(s.result(), ex::inScope));
  }

  private static Responses.Settlement lost(SettleCommand c, Settlement.Lost why) {
    return new Responses.Settlement(c.messageId(), why.name(), null);
  }

  /** The command one item names; fields of another action are refused, naming the field. */
  private static SettleCommand command(String at, SettleItemBody item) {
    if (item == null) {
      throw new IllegalArgumentException(at.substring(0, at.length() - 1) + ": is required");
    }
    if (item.token() == null) {
      throw new IllegalArgumentException(at + "token: is required");
    }
    LeaseToken token;
    try {
      token = LeaseToken.parse(item.token());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(at + e.getMessage(), e);
    }
    String action = item.action() == null ? "" : item.action();
    switch (action) {
      case "complete" -> {
        only(at, action, item, false, false);
        return new SettleCommand.Complete(token, RawJson.textOrNull(item.result()));
      }
      case "release" -> {
        only(at, action, item, false, false);
        return new SettleCommand.Release(token);
      }
      case "fail" -> {
        only(at, action, item, true, false);
        if (item.reason() == null) {
          throw new IllegalArgumentException(at + "reason: is required for action fail");
        }
        return new SettleCommand.Fail(
            token,
            FailureReason.parse(at + "reason", item.reason()),
            item.message(),
            item.retryable(),
            RequestBodies.optionalDuration(at + "retryAfter", item.retryAfter()),
            RequestBodies.progress(item.progress()),
            item.stackTrace());
      }
      case "abandon" -> {
        only(at, action, item, false, true);
        if (item.slowDown() != null) {
          if (item.delay() != null || item.refund() != null || item.note() != null) {
            throw new IllegalArgumentException(
                at + "slowDown: cannot be combined with delay, refund or note (it sets both)");
          }
          Duration d = RequestBodies.duration(at + "slowDown", item.slowDown());
          if (d.isZero()) {
            throw new IllegalArgumentException(at + "slowDown: must be positive, was 0s");
          }
          return SettleCommand.Abandon.slowDown(token, d);
        }
        return new SettleCommand.Abandon(
            token,
            RequestBodies.optionalDuration(at + "delay", item.delay()),
            Boolean.TRUE.equals(item.refund()),
            item.note(),
            null);
      }
      default ->
          throw new IllegalArgumentException(
              at
                  + "action: must be one of complete, fail, abandon, release, was "
                  + (item.action() == null ? "missing" : "\"" + item.action() + "\""));
    }
  }

  private static void only(
      String at, String action, SettleItemBody item, boolean failFields, boolean abandonFields) {
    List<String> foreign = new ArrayList<>();
    if (!action.equals("complete")) {
      named(foreign, "result", RawJson.textOrNull(item.result()));
    }
    if (!failFields) {
      named(foreign, "reason", item.reason());
      named(foreign, "message", item.message());
      named(foreign, "retryable", item.retryable());
      named(foreign, "retryAfter", item.retryAfter());
      named(foreign, "progress", item.progress());
      named(foreign, "stackTrace", item.stackTrace());
    }
    if (!abandonFields) {
      named(foreign, "delay", item.delay());
      named(foreign, "refund", item.refund());
      named(foreign, "note", item.note());
      named(foreign, "slowDown", item.slowDown());
    }
    if (!foreign.isEmpty()) {
      throw new IllegalArgumentException(at + foreign.get(0) + ": not a field of action " + action);
    }
  }

  private static void named(List<String> out, String field, Object value) {
    if (value != null) {
      out.add(field);
    }
  }
}
