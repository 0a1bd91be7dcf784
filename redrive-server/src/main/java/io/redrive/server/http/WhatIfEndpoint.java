package io.redrive.server.http;

import static io.javalin.http.HandlerType.POST;

import io.redrive.Redrive;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.QueueBodies.BackoffBody;
import io.redrive.whatif.RetryCandidate;
import io.redrive.whatif.WhatIfEnd;
import io.redrive.whatif.WhatIfReport;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /v1/queues/{name}/what-if}: a queue's recorded stories replayed under a candidate
 * retry policy (docs/api.md, "What-if for retry policies"). Reads only, so {@code VIEW} suffices.
 */
final class WhatIfEndpoint {
  /** What the answer says about attempts the record lacks. */
  static final String ASSUMPTION =
      "an attempt the record lacks is assumed to end as the last recorded attempt did";

  private final Redrive redrive;

  WhatIfEndpoint(Redrive redrive) {
    this.redrive = redrive;
  }

  Route route() {
    return Route.of(
        POST,
        "/v1/queues/{name}/what-if",
        "Replay a queue's recorded stories under a candidate retry policy (reads only)",
        Permission.VIEW,
        WhatIfBody.class,
        200,
        WhatIfView.class,
        ex -> {
          WhatIfBody body = ex.body(WhatIfBody.class);
          WhatIfReport r = redrive.whatIf(ex.path("name"), body.sinceValue(), body.candidate());
          ex.reply(WhatIfView.of(r));
        });
  }

  /** The candidate policy and the period of stories to replay. */
  record WhatIfBody(
      @ApiField(format = "duration", description = "stories that ended in this period (default 7d)")
          String since,
      @ApiField(min = 1, max = 10000, required = true) Integer maxAttempts,
      @ApiField(description = "absent: the default (exponential 1m x2 up to 1h)")
          BackoffBody backoff,
      @ApiField(min = 0, description = "the crash-loop breaker; 0 or absent: off")
          Integer maxCrashes) {

    Duration sinceValue() {
      return since == null ? Duration.ofDays(7) : RequestBodies.duration("since", since);
    }

    RetryCandidate candidate() {
      if (maxAttempts == null) {
        throw new IllegalArgumentException("maxAttempts: required");
      }
      return new RetryCandidate(
          maxAttempts,
          backoff == null ? io.redrive.retry.Backoff.defaultBackoff() : backoff.toBackoff(),
          maxCrashes == null ? 0 : maxCrashes);
    }
  }

  /** The report; durations in milliseconds, null where no story completed both ways. */
  record WhatIfView(
      int replayed,
      int skipped,
      Map<String, Integer> recorded,
      Map<String, Integer> candidate,
      int newlyCompleted,
      int newlyDead,
      int assumed,
      String assumption,
      ShiftView shift) {

    static WhatIfView of(WhatIfReport r) {
      return new WhatIfView(
          r.replayed(),
          r.skipped(),
          ends(r.recorded()),
          ends(r.candidate()),
          r.newlyCompleted(),
          r.newlyDead(),
          r.assumed(),
          ASSUMPTION,
          ShiftView.of(r.shift()));
    }

    private static Map<String, Integer> ends(Map<WhatIfEnd, Integer> byEnd) {
      Map<String, Integer> out = new LinkedHashMap<>();
      for (WhatIfEnd end : WhatIfEnd.values()) {
        out.put(end.name(), byEnd.getOrDefault(end, 0));
      }
      return out;
    }
  }

  /** Completion time shifts (candidate minus recorded), in milliseconds. */
  record ShiftView(
      int count,
      long totalMs,
      @ApiField(nullable = true) Long minMs,
      @ApiField(nullable = true) Long p50Ms,
      @ApiField(nullable = true) Long p90Ms,
      @ApiField(nullable = true) Long p99Ms,
      @ApiField(nullable = true) Long maxMs) {

    static ShiftView of(WhatIfReport.Shift s) {
      return new ShiftView(
          s.count(),
          s.total().toMillis(),
          ms(s.min()),
          ms(s.p50()),
          ms(s.p90()),
          ms(s.p99()),
          ms(s.max()));
    }

    private static Long ms(Duration d) {
      return d == null ? null : d.toMillis();
    }
  }
}
