package io.redrive.server.http;

import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.SettleResult;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.RequestBodies.AbandonBody;
import io.redrive.server.http.RequestBodies.CompleteBody;
import io.redrive.server.http.RequestBodies.FailBody;
import io.redrive.server.http.RequestBodies.ReleaseBody;
import io.redrive.server.http.RequestBodies.RenewBody;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Consuming: lease (with long poll) and settling by lease token. */
final class LeaseEndpoints {
  static final String DEFAULT_WORKER = "http";

  private final Redrive redrive;
  private final Views views;
  private final LeaseWaiter waiter;
  private final Duration maxLeaseWait;

  LeaseEndpoints(Redrive redrive, Views views, LeaseWaiter waiter, Duration maxLeaseWait) {
    this.redrive = redrive;
    this.views = views;
    this.waiter = waiter;
    this.maxLeaseWait = maxLeaseWait;
  }

  List<Route> routes() {
    return List.of(
        Route.of(
                POST,
                "/v1/queues/{name}/lease",
                "Lease messages, waiting up to `wait`",
                Permission.CONSUME,
                LeaseBody.class,
                200,
                Responses.LeaseResult.class,
                this::lease)
            .optionalBody(),
        Route.of(
                POST,
                "/v1/leases/{token}/complete",
                "Complete a leased message",
                Permission.CONSUME,
                CompleteBody.class,
                200,
                Responses.Settle.class,
                this::complete)
            .optionalBody(),
        Route.of(
            POST,
            "/v1/leases/{token}/fail",
            "Fail an attempt (retry later or dead)",
            Permission.CONSUME,
            FailBody.class,
            200,
            Responses.Settle.class,
            this::fail),
        Route.of(
                POST,
                "/v1/leases/{token}/abandon",
                "Give a lease back after a delay",
                Permission.CONSUME,
                AbandonBody.class,
                200,
                Responses.Settle.class,
                this::abandon)
            .optionalBody(),
        Route.of(
                POST,
                "/v1/leases/{token}/renew",
                "Extend a lease",
                Permission.CONSUME,
                RenewBody.class,
                200,
                Responses.Renewed.class,
                this::renew)
            .optionalBody(),
        Route.of(
            POST,
            "/v1/leases/release",
            "Give leases back with attempts refunded",
            Permission.CONSUME,
            ReleaseBody.class,
            200,
            Responses.SettleList.class,
            this::release));
  }

  private void lease(Exchange ex) throws Exception {
    LeaseBody body = ex.body(LeaseBody.class);
    if (body == null) {
      body = new LeaseBody(null, null, null, null, null);
    }
    Duration wait = RequestBodies.optionalDuration("wait", body.waitFor(), Duration.ZERO);
    if (wait.compareTo(maxLeaseWait) > 0) {
      throw new IllegalArgumentException(
          "wait: at most "
              + DurationText.format(maxLeaseWait)
              + " (the server's maxLeaseWait), was "
              + body.waitFor());
    }
    LeaseRequest request =
        new LeaseRequest(
            ex.path("name"),
            body.worker() == null ? DEFAULT_WORKER : body.worker(),
            body.max() == null ? 1 : body.max(),
            RequestBodies.optionalDuration("leaseTimeout", body.leaseTimeout()),
            body.types() == null ? Set.of() : new LinkedHashSet<>(body.types()));
    LeaseResult first = redrive.lease(request);
    if (!first.leased().isEmpty() || wait.isZero() || waiter.closed()) {
      ex.reply(views.leaseResult(first));
      return;
    }
    ex.replyLater(waiter.await(request, wait, first).thenApply(views::leaseResult));
  }

  private void complete(Exchange ex) throws Exception {
    String token = ex.path("token");
    LeaseToken parsed = LeaseToken.parse(token);
    CompleteBody body = ex.body(CompleteBody.class);
    long progress = RequestBodies.progress(body == null ? null : body.progress());
    String result = body == null ? null : body.resultJson();
    Optional<String> queue = redrive.queueOf(parsed.messageId());
    if (queue.isPresent()) {
      authorize(ex, parsed, queue.get());
      ex.reply(Views.settle(complete(token, progress, result), ex::inScope));
      return;
    }
    // Gone: perhaps completed by this very lease (a repeat within the completion window, which
    // changes nothing). The queue is known only from the answer, and is checked like a live one's.
    SettleResult repeated = complete(token, progress, result);
    if (!ex.inScope(repeated.queue())) {
      throw new LeaseNotFoundException(parsed.messageId());
    }
    ex.authorizeQueue(repeated.queue());
    ex.reply(Views.settle(repeated, ex::inScope));
  }

  private SettleResult complete(String token, long progress, String result) {
    return result == null
        ? redrive.complete(token, progress)
        : redrive.completeWithResult(token, result);
  }

  private void fail(Exchange ex) throws Exception {
    String token = authorizeToken(ex, ex.path("token"));
    FailBody body = ex.body(FailBody.class);
    FailRequest request =
        new FailRequest(
            token,
            FailureReason.parse("reason", body.reason()),
            body.message(),
            body.retryable(),
            RequestBodies.optionalDuration("retryAfter", body.retryAfter()),
            RequestBodies.progress(body.progress()),
            body.stackTrace(),
            body.dependency());
    ex.reply(Views.settle(redrive.fail(request), ex::inScope));
  }

  private void abandon(Exchange ex) throws Exception {
    String token = authorizeToken(ex, ex.path("token"));
    AbandonBody body = ex.body(AbandonBody.class);
    if (body == null) {
      body = new AbandonBody(null, null, null, null);
    }
    if (body.slowDown() != null) {
      if (body.delay() != null || body.refund() != null || body.note() != null) {
        throw new IllegalArgumentException(
            "slowDown: cannot be combined with delay, refund or note (it sets both)");
      }
      ex.reply(
          Views.settle(
              redrive.slowDown(token, RequestBodies.duration("slowDown", body.slowDown())),
              ex::inScope));
      return;
    }
    ex.reply(
        Views.settle(
            redrive.abandon(
                new AbandonRequest(
                    token,
                    RequestBodies.optionalDuration("delay", body.delay()),
                    Boolean.TRUE.equals(body.refund()),
                    body.note())),
            ex::inScope));
  }

  private void renew(Exchange ex) throws Exception {
    String token = authorizeToken(ex, ex.path("token"));
    RenewBody body = ex.body(RenewBody.class);
    Duration timeout =
        body == null ? null : RequestBodies.optionalDuration("leaseTimeout", body.leaseTimeout());
    Instant expiresAt = redrive.renew(token, timeout);
    ex.reply(new Responses.Renewed(expiresAt));
  }

  private void release(Exchange ex) throws Exception {
    ReleaseBody body = ex.body(ReleaseBody.class);
    if (body.tokens() == null || body.tokens().isEmpty()) {
      throw new IllegalArgumentException("tokens: at least one lease token is required");
    }
    Set<String> tokens = new LinkedHashSet<>();
    for (String t : body.tokens()) {
      LeaseToken.parse(t);
      tokens.add(t);
    }
    for (String t : tokens) {
      authorizeToken(ex, t);
    }
    List<Responses.Settle> results = new ArrayList<>();
    for (SettleResult r : redrive.release(List.copyOf(tokens))) {
      results.add(Views.settle(r, ex::inScope));
    }
    ex.reply(new Responses.SettleList(results));
  }

  /**
   * Parses a token and checks the caller may consume from its message's queue, learnt by a narrow
   * read (no history, no lock; the settle itself then reads the row once); a token whose message no
   * longer exists is {@code LEASE_NOT_FOUND}.
   */
  private String authorizeToken(Exchange ex, String token) {
    LeaseToken parsed = LeaseToken.parse(token);
    String queue =
        redrive
            .queueOf(parsed.messageId())
            .orElseThrow(() -> new LeaseNotFoundException(parsed.messageId()));
    authorize(ex, parsed, queue);
    return token;
  }

  private static void authorize(Exchange ex, LeaseToken parsed, String queue) {
    if (!ex.inScope(queue)) {
      // Same answer as a missing message: a token never tells a key about other queues.
      throw new LeaseNotFoundException(parsed.messageId());
    }
    ex.authorizeQueue(queue);
  }
}
