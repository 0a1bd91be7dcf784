package io.redrive.server.ui;

import io.redrive.queue.Queue;
import io.redrive.whatif.WhatIfEnd;
import io.redrive.whatif.WhatIfReport;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The what-if page's model ({@link WhatIfPage}).
 *
 * @param queue the queue replayed
 * @param since the period field as given
 * @param maxAttempts the max-attempts field as given
 * @param backoff the backoff field as given ({@code exponential:1m:2:1h} or {@code fixed:30s})
 * @param maxCrashes the max-crashes field as given
 * @param report the answer, or null before the form was sent
 */
public record WhatIfView(
    Queue queue,
    String since,
    String maxAttempts,
    String backoff,
    String maxCrashes,
    WhatIfReport report) {

  /** Every end, in order, for the report's rows. */
  public List<WhatIfEnd> ends() {
    return List.of(WhatIfEnd.values());
  }

  /** A shift in seconds, signed ("-" for none). */
  public static String shift(Duration d) {
    return d == null ? "-" : String.format(Locale.ROOT, "%+.1f s", d.toMillis() / 1000.0);
  }
}
