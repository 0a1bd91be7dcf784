package io.redrive.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.message.CrashEvidence;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A history entry's {@code evidence} over HTTP (docs/engine.md, "Crash evidence"). */
class HistoryEntryViewTest {
  private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

  private static HistoryEntry entry(Outcome outcome, String note) {
    return new HistoryEntry(1, outcome, "w-1", AT, AT.plusSeconds(30), null, note);
  }

  @Test
  void leaseExpiry_answersItsEvidence_otherEntriesNone() {
    assertThat(
            Views.entry(entry(Outcome.LEASE_EXPIRED, CrashEvidence.OUTAGE.note()), null).evidence())
        .isEqualTo("outage");
    assertThat(
            Views.entry(entry(Outcome.LEASE_EXPIRED, CrashEvidence.WORKER_DIED.note()), null)
                .evidence())
        .isEqualTo("worker-died");
    assertThat(Views.entry(entry(Outcome.LEASE_EXPIRED, null), null).evidence()).isNull();
    assertThat(Views.entry(entry(Outcome.RETRIED, "evidence: outage"), null).evidence()).isNull();
  }
}
