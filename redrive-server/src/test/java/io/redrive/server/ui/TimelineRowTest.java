package io.redrive.server.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.message.CrashEvidence;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A lease expiry's words follow its crash evidence (docs/dashboard.md, "Crash evidence"). */
class TimelineRowTest {
  private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

  private static HistoryEntry expiry(String note) {
    return new HistoryEntry(1, Outcome.LEASE_EXPIRED, "w-1", AT, AT.plusSeconds(30), null, note);
  }

  @Test
  void leaseExpired_wordsFollowTheEvidence_orSayLikelyCrashWithoutIt() {
    assertThat(TimelineRow.of(expiry(CrashEvidence.OUTAGE.note())).verdict())
        .isEqualTo("lease expired — outage, not counted as a crash");
    assertThat(TimelineRow.of(expiry(CrashEvidence.OUTAGE.note())).kind()).isEqualTo("neutral");
    assertThat(TimelineRow.of(expiry(CrashEvidence.WORKER_DIED.note())).verdict())
        .isEqualTo("lease expired — worker died");
    assertThat(TimelineRow.of(expiry(null)).verdict()).isEqualTo("lease expired — likely crash");
  }
}
