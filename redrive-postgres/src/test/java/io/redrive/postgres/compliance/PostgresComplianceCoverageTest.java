package io.redrive.postgres.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.compliance.ComplianceContracts;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresComplianceCoverageTest {
  @Test
  void suite_everyContract_hasAPostgresSubclass() {
    assertThat(
            ComplianceContracts.uncovered(
                List.of(
                    PostgresQueueAdminTest.class,
                    PostgresDeadLetterConfigTest.class,
                    PostgresDeadGroupsTest.class,
                    PostgresEnqueueTest.class,
                    PostgresTransactionalEnqueueTest.class,
                    PostgresLeaseTest.class,
                    PostgresLeaseTypeFilterTest.class,
                    PostgresSettleTest.class,
                    PostgresPoisonTest.class,
                    PostgresCrashLoopTest.class,
                    PostgresCrashEvidenceTest.class,
                    PostgresBackoffTest.class,
                    PostgresStreamTest.class,
                    PostgresPriorityTest.class,
                    PostgresWorkflowStoreTest.class,
                    PostgresWorkflowCommitTest.class,
                    PostgresWorkflowCheckpointTest.class,
                    PostgresActivityResultTest.class,
                    PostgresThroughputTest.class,
                    PostgresWorkflowOperationsTest.class,
                    PostgresWorkflowNodesTest.class,
                    PostgresKnownHistoryTest.class,
                    PostgresStickyLeaseTest.class,
                    PostgresScheduleTest.class,
                    PostgresObjectiveTest.class,
                    PostgresWhatIfTest.class,
                    PostgresDeadLetterTest.class,
                    PostgresExpiryTest.class,
                    PostgresMetricsTest.class,
                    PostgresManualRetryTest.class,
                    PostgresRetryNowTest.class,
                    PostgresRedriveTest.class,
                    PostgresStreamRedriveTest.class,
                    PostgresLineageTest.class,
                    PostgresLeaseHoldersTest.class,
                    PostgresCompletedRetentionTest.class,
                    PostgresFlowLimitTest.class,
                    PostgresCircuitTest.class,
                    PostgresDropAndImportTest.class,
                    PostgresStatsTest.class,
                    PostgresBadInputTest.class,
                    PostgresConcurrencyTest.class,
                    PostgresStoreFailureTest.class,
                    PostgresIdPrefixTest.class,
                    PostgresBatchCompleteTest.class,
                    PostgresCompletionWindowTest.class,
                    PostgresBatchFailTest.class,
                    PostgresListingTest.class,
                    PostgresPayloadFieldTest.class,
                    PostgresQueueDeclarationTest.class,
                    PostgresMigrationTest.class,
                    PostgresUndeliveredLeaseTest.class,
                    PostgresSettleMixTest.class,
                    PostgresSettleThenLeaseTest.class,
                    PostgresUniqueKeyTest.class,
                    PostgresUniqueKeyLifecycleTest.class,
                    PostgresLiveWorkersTest.class)))
        .isEmpty();
  }
}
