package io.redrive.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.redrive.failure.FailureCategory;
import io.redrive.failure.FailureReason;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.StreamPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The response bodies of the API, one record per shape docs/api.md names (field order as
 * documented). {@code /openapi.json} derives its response schemas from these records, so the
 * document and the answers cannot drift apart. Every field is always present unless marked {@link
 * JsonInclude} NON_NULL; {@link ApiField#nullable()} marks the ones that may be null.
 */
final class Responses {
  private Responses() {}

  /** Marks {@code GET /metrics}: Prometheus text, not JSON. */
  static final class PrometheusText {
    private PrometheusText() {}
  }

  /** Marks {@code GET /openapi.json}: the OpenAPI document itself. */
  static final class OpenApiDocument {
    private OpenApiDocument() {}
  }

  /** {@code /health} and {@code /ready}. */
  record Status(@ApiField(values = {"ok", "ready"}) String status) {}

  /** {@code /ready} when the store does not answer (503). */
  record Unavailable(@ApiField(values = {"unavailable"}) String status, String error) {}

  /** Every error: {@code {"error": {"code", "message"}}}. */
  record Error(ErrorDetail error) {}

  /** The code and message of an {@link Error}. */
  record ErrorDetail(String code, String message) {}

  /** A queue and its policy. */
  record Queue(
      String name,
      @ApiField(min = 1, max = 10_000) int maxAttempts,
      @ApiField(format = "duration") String leaseTimeout,
      Backoff backoff,
      @ApiField(format = "duration", nullable = true) String expireAfter,
      @ApiField(values = {"keep", "move", "discard"}) String deadLetter,
      @ApiField(nullable = true) String deadLetterQueue,
      StreamPolicy streamPolicy,
      @ApiField(
              min = 0,
              max = 10_000,
              description =
                  "the crash-loop breaker: a message whose lease ran out on this many distinct"
                      + " workers is poisoned; 0 is off")
          int maxCrashes,
      @ApiField(
              format = "duration",
              nullable = true,
              description =
                  "how long completed messages keep their story; null follows the server's"
                      + " default")
          String completedRetention,
      boolean paused,
      Instant createdAt,
      Instant updatedAt,
      @ApiField(description = "created by the workflow runtime for its activities")
          boolean workflowOwned,
      @ApiField(
              min = 0,
              max = 9,
              description = "the priority of a message enqueued without one; higher first")
          int defaultPriority,
      @ApiField(format = "duration", description = "the head start one step of priority is worth")
          String priorityAging,
      @ApiField(nullable = true, description = "flow limits; null when the queue has none")
          Limits limits,
      @ApiField(nullable = true) CircuitBodies.CircuitBody circuit) {}

  /** A queue's flow limits; a null field limits nothing. */
  record Limits(
      @ApiField(nullable = true, min = 1, max = 100_000) Integer maxRunning,
      @ApiField(nullable = true, min = 1, max = 100_000) Integer maxRunningPerKey,
      @ApiField(nullable = true, description = "leases per period, e.g. \"100/1m\"") String rate,
      @ApiField(nullable = true, description = "leases per period of one limit key")
          String ratePerKey) {}

  /**
   * Exponential ({@code initial, multiplier, max}) or fixed ({@code cooldown}); {@code jitter} only
   * when the delays are spread (absent: NONE, exact).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Backoff(
      @ApiField(values = {"exponential", "fixed"}) String kind,
      @ApiField(format = "duration") String initial,
      @ApiField(bounded = false) Double multiplier,
      @ApiField(format = "duration") String max,
      @ApiField(format = "duration") String cooldown,
      @ApiField(values = {"FULL", "EQUAL"}) String jitter) {}

  /** {@code GET /v1/queues/{name}}: the queue plus its stats. */
  record QueueWithStats(@JsonUnwrapped Queue queue, Stats stats) {}

  /** {@code GET /v1/queues}. */
  record QueueList(List<Queue> queues) {}

  /** Counts, attempts and reasons of one queue. */
  record Stats(
      String queue,
      long ready,
      long scheduled,
      long leased,
      long leaseExpired,
      long dead,
      long total,
      @ApiField(description = "messages by attempts made (key: attempts)")
          Map<String, Long> attempts,
      Map<String, Long> deadReasons,
      Map<String, Long> failureReasons,
      @ApiField(nullable = true) Instant nextScheduledAt,
      @ApiField(nullable = true) Instant latestScheduledAt,
      @ApiField(format = "duration", nullable = true) String oldestReadyAge) {}

  /**
   * {@code GET /v1/queues/{name}/throughput} and {@code GET /v1/throughput} (and their deprecated
   * aliases {@code .../activity}): one point per minute, oldest first, the last one the current
   * minute (docs/engine.md, "Throughput counters").
   */
  record Throughput(
      @ApiField(nullable = true, description = "the queue, or null for the sum of every queue")
          String queue,
      int minutes,
      List<ThroughputPoint> points) {}

  /** One minute of {@link Throughput}. */
  record ThroughputPoint(
      Instant minute,
      long enqueued,
      long completed,
      @ApiField(description = "attempts that failed: fails, abandons with a reason, expired leases")
          long failed,
      @ApiField(description = "messages that died, any reason, counted on the queue they died in")
          long dead,
      @ApiField(nullable = true, description = "the minute's depth snapshot, null when none")
          ThroughputDepth depth) {}

  /** Messages by state at a minute's depth snapshot; an expired lease counts as ready. */
  record ThroughputDepth(long ready, long scheduled, long leased, long dead) {}

  /** {@code POST /v1/queues/{name}/messages}. */
  record EnqueueResults(List<EnqueueResult> results) {}

  /**
   * The id of one enqueued message; {@code duplicate} when its dedupe key was seen or a message
   * waiting with its unique key was kept, {@code replaced} when that waiting message took this
   * enqueue's content (its id is returned); neither: created.
   */
  record EnqueueResult(String id, boolean duplicate, boolean replaced) {}

  /** {@code POST /v1/queues/{name}/lease}. */
  record LeaseResult(List<Leased> messages, List<String> poisoned, List<String> expired) {}

  /** One leased message. */
  record Leased(
      String token,
      String id,
      String queue,
      String type,
      @ApiField(nullable = true) RawJson payload,
      Map<String, String> headers,
      @ApiField(nullable = true) String stream,
      @ApiField(min = 1) int attempt,
      @ApiField(min = 1) int maxAttempts,
      long progress,
      Instant enqueuedAt,
      Instant leaseExpiresAt,
      @ApiField(min = 0, max = 9, description = "higher is served first") int priority,
      @ApiField(nullable = true, description = "the key the queue's flow limits count it under")
          String limitKey) {}

  /** How a settle (complete, fail, abandon, release) left the message. */
  record Settle(
      String id,
      MessageState state,
      @ApiField(nullable = true) Instant visibleAt,
      @ApiField(nullable = true) FailureReason deadReason,
      @ApiField(nullable = true) String deadLetterQueue,
      boolean discarded,
      boolean repeated) {}

  /** {@code POST /v1/leases/release}. */
  record SettleList(List<Settle> results) {}

  /**
   * One answer of {@code POST /v1/leases/settle}: {@code result} when the settle was done, else
   * {@code lost} says why nothing was (NOT_FOUND, NOT_CURRENT, DUPLICATE).
   */
  record Settlement(
      String id,
      @ApiField(
              nullable = true,
              values = {"NOT_FOUND", "NOT_CURRENT", "DUPLICATE"})
          String lost,
      @ApiField(nullable = true) Settle result) {}

  /** {@code POST /v1/leases/settle}: one answer per settle, in order. */
  record SettlementList(List<Settlement> results) {}

  /** {@code POST /v1/leases/{token}/renew}. */
  record Renewed(Instant leaseExpiresAt) {}

  /** A message; {@code history} only where a single message is returned. */
  record Message(
      String id,
      String queue,
      String type,
      @ApiField(nullable = true) RawJson payload,
      Map<String, String> headers,
      @ApiField(nullable = true) String stream,
      @ApiField(min = 0, max = 9, description = "higher is served first") int priority,
      MessageState state,
      int attempts,
      @ApiField(min = 1) int maxAttempts,
      long progress,
      Instant enqueuedAt,
      @ApiField(nullable = true) Instant visibleAt,
      @ApiField(nullable = true) Instant expireAt,
      @ApiField(nullable = true) String leasedBy,
      @ApiField(nullable = true) FailureReason deadReason,
      @ApiField(nullable = true) Instant deadAt,
      @ApiField(nullable = true, description = "for a COMPLETED message its queue kept")
          Instant completedAt,
      @ApiField(nullable = true) String sourceId,
      @ApiField(nullable = true) String sourceQueue,
      @ApiField(nullable = true) String dedupeKey,
      @ApiField(nullable = true, description = "the key the queue's flow limits count it under")
          String limitKey,
      @ApiField(nullable = true, description = "held while the message waits for its first lease")
          String uniqueKey,
      @ApiField(
              nullable = true,
              description = "the trace id of its traceparent header, when it carries a valid one")
          String traceId,
      @ApiField(nullable = true) Failure lastError,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<Entry> history) {}

  /** One history entry: a delivery's end or an operator action. */
  record Entry(
      int attempt,
      Outcome outcome,
      @ApiField(nullable = true) String worker,
      @ApiField(nullable = true) Instant leasedAt,
      @ApiField(nullable = true) Instant settledAt,
      @ApiField(nullable = true) Failure failure,
      @ApiField(nullable = true) String note,
      @ApiField(
              nullable = true,
              values = {"worker-died", "outage"})
          String evidence) {}

  /** A recorded failure. */
  record Failure(
      FailureReason reason,
      FailureCategory category,
      @ApiField(nullable = true) String message,
      boolean retryable,
      int attempt,
      int maxAttempts,
      @ApiField(nullable = true) String worker,
      Instant at,
      @ApiField(nullable = true) String stackTrace,
      @ApiField(nullable = true) String poisonedMessage,
      String display) {}

  /** {@code GET /v1/queues/{name}/messages}: a page and the cursor of the next one. */
  record MessagePage(List<Message> messages, @ApiField(nullable = true) String next) {}

  /**
   * One dead-letter group: the dead messages of a queue that died of one cause, with the pieces of
   * its fingerprint (computed from its latest message) so a reader sees what grouped them.
   */
  record DeadGroup(
      String queue,
      @ApiField(
              pattern = "^[0-9a-f]{16}$",
              description = "the group's key: a filter value for listing, retry, drop, redrive")
          String fingerprint,
      FailureReason deadReason,
      String type,
      @ApiField(min = 1) long count,
      Instant firstDeadAt,
      Instant lastDeadAt,
      @ApiField(nullable = true, description = "reason of the failure the messages died of")
          FailureReason causeReason,
      @ApiField(nullable = true) String exceptionClass,
      @ApiField(nullable = true, description = "the cause's error message, variable parts replaced")
          String pattern,
      @ApiField(description = "top stack frames of the cause, at most 3") List<String> frames,
      @ApiField(description = "the group's latest dead message") String sampleId,
      @ApiField(nullable = true) Failure sampleCause) {}

  /** {@code GET /v1/dead-groups} and {@code /v1/queues/{name}/dead-groups}: largest first. */
  record DeadGroupPage(
      List<DeadGroup> groups,
      @ApiField(nullable = true, description = "offset of the next page, null on the last")
          Integer nextOffset) {}

  /** {@code POST /v1/messages/retry} and {@code /retry-now}. */
  record RetryResult(List<String> retried, List<String> skipped, List<String> notFound) {}

  /** {@code POST /v1/messages/drop} and {@code /v1/queues/{name}/drop}. */
  record DropResult(List<String> dropped, List<String> notFound) {}

  /** {@code POST /v1/queues/{name}/redrive}. */
  record RedriveResult(
      List<Move> moves,
      List<String> skipped,
      boolean dryRun,
      int count,
      @ApiField(
              description =
                  "each stream the redrive puts messages back into: its waiting messages in the"
                      + " order they will be delivered (for a dry run, the order it would make)")
          List<StreamOrder> streams,
      @ApiField(description = "with ?countRemaining=true: what a later call could still move")
          @JsonInclude(JsonInclude.Include.NON_NULL)
          Integer remaining) {}

  /** {@code POST /v1/queues/{name}/retry}: one batch of a queue's dead messages retried. */
  record RetryDeadResult(
      List<String> retried,
      List<String> skipped,
      boolean dryRun,
      @ApiField(
              nullable = true,
              description = "with countRemaining: the matches left after this call, else null")
          Long remaining) {}

  /** One stream's waiting messages after a redrive, first delivered first. */
  record StreamOrder(String queue, String stream, List<String> ids, List<String> redriven) {}

  /** One dead letter moved (or, in a dry run, that would move: {@code newId} null). */
  record Move(String deadLetterId, String toQueue, @ApiField(nullable = true) String newId) {}

  /** {@code POST /v1/queues/{name}/import}. */
  record ImportResult(List<String> imported, List<String> duplicates) {}

  /** {@code GET /v1/messages/{id}/lineage}: one message's ids across dead-letter moves. */
  record Lineage(
      String id,
      @ApiField(description = "oldest first; the ids it had before each move, then its copies")
          List<LineageLink> links,
      @ApiField(nullable = true, description = "the newest id still stored: where it is now")
          String current) {}

  /**
   * One id of a lineage; {@code state} is null once that id is gone (moved, completed, dropped).
   */
  record LineageLink(
      String id,
      @ApiField(nullable = true) String queue,
      @ApiField(
              nullable = true,
              values = {"READY", "LEASED", "DEAD"})
          String state) {}

  /** {@code GET /v1/search}: the messages the text found, each once. */
  record SearchHits(String q, List<SearchHit> hits) {}

  /** One message found, with how the text matched it and where it is now. */
  record SearchHit(
      @ApiField(values = {"ID", "PREFIX", "MOVED", "DEDUPE_KEY"}) String match,
      String id,
      String queue,
      @ApiField(
              nullable = true,
              values = {"READY", "SCHEDULED", "LEASED", "DEAD"})
          String state) {}
}
