package io.redrive.sqlite.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.compliance.ComplianceContracts;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqliteComplianceCoverageTest {
  @Test
  void suite_everyContract_hasASqliteSubclass() {
    assertThat(
            ComplianceContracts.uncovered(
                List.of(
                    SqliteQueueAdminTest.class,
                    SqliteDeadLetterConfigTest.class,
                    SqliteDeadGroupsTest.class,
                    SqliteEnqueueTest.class,
                    SqliteTransactionalEnqueueTest.class,
                    SqliteLeaseTest.class,
                    SqliteLeaseTypeFilterTest.class,
                    SqliteSettleTest.class,
                    SqlitePoisonTest.class,
                    SqliteCrashLoopTest.class,
                    SqliteCrashEvidenceTest.class,
                    SqliteBackoffTest.class,
                    SqliteStreamTest.class,
                    SqlitePriorityTest.class,
                    SqliteWorkflowStoreTest.class,
                    SqliteWorkflowCommitTest.class,
                    SqliteWorkflowCheckpointTest.class,
                    SqliteActivityResultTest.class,
                    SqliteThroughputTest.class,
                    SqliteWorkflowOperationsTest.class,
                    SqliteWorkflowNodesTest.class,
                    SqliteKnownHistoryTest.class,
                    SqliteStickyLeaseTest.class,
                    SqliteScheduleTest.class,
                    SqliteObjectiveTest.class,
                    SqliteWhatIfTest.class,
                    SqliteDeadLetterTest.class,
                    SqliteExpiryTest.class,
                    SqliteMetricsTest.class,
                    SqliteManualRetryTest.class,
                    SqliteRetryNowTest.class,
                    SqliteRedriveTest.class,
                    SqliteStreamRedriveTest.class,
                    SqliteLineageTest.class,
                    SqliteLeaseHoldersTest.class,
                    SqliteCompletedRetentionTest.class,
                    SqliteFlowLimitTest.class,
                    SqliteCircuitTest.class,
                    SqliteDropAndImportTest.class,
                    SqliteStatsTest.class,
                    SqliteBadInputTest.class,
                    SqliteConcurrencyTest.class,
                    SqliteStoreFailureTest.class,
                    SqliteIdPrefixTest.class,
                    SqliteBatchCompleteTest.class,
                    SqliteCompletionWindowTest.class,
                    SqliteBatchFailTest.class,
                    SqliteListingTest.class,
                    SqlitePayloadFieldTest.class,
                    SqliteQueueDeclarationTest.class,
                    SqliteMigrationTest.class,
                    SqliteUndeliveredLeaseTest.class,
                    SqliteSettleMixTest.class,
                    SqliteSettleThenLeaseTest.class,
                    SqliteUniqueKeyTest.class,
                    SqliteUniqueKeyLifecycleTest.class,
                    SqliteLiveWorkersTest.class)))
        .isEmpty();
  }
}
