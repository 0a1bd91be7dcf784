package io.redrive.server.http;

import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.deadletter.RetryResult;
import io.redrive.failure.FailureReason;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.server.auth.Permission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Retrying a queue's dead messages by filter, one batch per call: the server pages through the dead
 * set, so an operator's command never copies it to the client. Each call retries up to {@code
 * limit} matches and can count what still matches, for progress and for "what remains".
 */
final class DeadRetryEndpoints {
  /** Most messages one call retries. */
  static final int MAX_BATCH = 1000;

  private static final int PAGE = MessageQuery.MAX_LIMIT;

  private final Redrive redrive;

  DeadRetryEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  /**
   * {@code POST /v1/queues/{name}/retry}.
   *
   * @param deadReasons only messages dead for one of these reasons; null or empty for any
   * @param exceptDeadReasons not messages dead for one of these reasons
   * @param type only messages of this type
   * @param fingerprint only messages of this dead-letter group
   * @param limit most messages to retry in this call, 1–1000 (default 1000)
   * @param countRemaining when true, the answer counts the matches left after this call
   * @param dryRun when true, retry nothing: {@code retried} lists what would be
   */
  record RetryDeadBody(
      List<String> deadReasons,
      List<String> exceptDeadReasons,
      String type,
      @ApiField(
              pattern = RequestBodies.FINGERPRINT,
              description = "only dead messages of this dead-letter group")
          String fingerprint,
      @ApiField(min = 1, max = MAX_BATCH) Integer limit,
      Boolean countRemaining,
      Boolean dryRun) {}

  List<Route> routes() {
    return List.of(
        Route.of(
                POST,
                "/v1/queues/{name}/retry",
                "Retry a batch of a queue's dead messages matching a filter, in place",
                Permission.ADMIN,
                RetryDeadBody.class,
                200,
                Responses.RetryDeadResult.class,
                this::retryDead)
            .optionalBody());
  }

  private void retryDead(Exchange ex) throws Exception {
    String queue = ex.path("name");
    RetryDeadBody body = ex.body(RetryDeadBody.class);
    if (body == null) {
      body = new RetryDeadBody(null, null, null, null, null, null, null);
    }
    Set<FailureReason> only = reasons("deadReasons", body.deadReasons());
    Set<FailureReason> except = reasons("exceptDeadReasons", body.exceptDeadReasons());
    if (body.type() != null && body.type().isBlank()) {
      throw new IllegalArgumentException("type: must not be blank");
    }
    int limit = body.limit() == null ? MAX_BATCH : body.limit();
    if (limit < 1 || limit > MAX_BATCH) {
      throw new IllegalArgumentException(
          "limit: must be between 1 and " + MAX_BATCH + ", was " + limit);
    }
    boolean count = Boolean.TRUE.equals(body.countRemaining());
    boolean dryRun = Boolean.TRUE.equals(body.dryRun());
    redrive.getQueue(queue);

    MessageQuery query =
        MessageQuery.all(queue)
            .withStates(EnumSet.of(MessageState.DEAD))
            .withType(body.type())
            .withFingerprint(body.fingerprint())
            .withDeadReason(only.size() == 1 ? only.iterator().next() : null)
            .withLimit(PAGE);
    List<String> batch = new ArrayList<>();
    long beyond = 0;
    String after = null;
    do {
      MessagePage page = redrive.listMessages(query.withAfter(after));
      for (Message m : page.messages()) {
        if (!only.isEmpty() && !only.contains(m.deadReason()) || except.contains(m.deadReason())) {
          continue;
        }
        if (batch.size() < limit) {
          batch.add(m.id());
        } else {
          beyond++;
        }
      }
      after = page.next();
    } while (after != null && (batch.size() < limit || count));

    List<String> retried = batch;
    List<String> skipped = List.of();
    if (!dryRun && !batch.isEmpty()) {
      RetryResult r = redrive.retry(batch, ex.actor());
      retried = r.retried();
      skipped = new ArrayList<>(r.skipped());
      skipped.addAll(r.notFound()); // dropped or moved meanwhile: no longer a dead match either
    }
    ex.reply(
        new Responses.RetryDeadResult(
            retried, skipped, dryRun, count ? beyond + (dryRun ? batch.size() : 0) : null));
  }

  private static Set<FailureReason> reasons(String field, List<String> values) {
    Set<FailureReason> set = EnumSet.noneOf(FailureReason.class);
    if (values != null) {
      for (String v : values) {
        set.add(FailureReason.parse(field, v));
      }
    }
    return set;
  }
}
