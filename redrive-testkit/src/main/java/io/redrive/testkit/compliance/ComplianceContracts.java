package io.redrive.testkit.compliance;

import io.redrive.testkit.migration.MigrationContract;
import java.util.Collection;
import java.util.List;

/**
 * Every contract of the compliance suite, so a store module can assert that it runs them all:
 *
 * <pre>{@code
 * assertThat(ComplianceContracts.uncovered(List.of(SqliteLeaseTest.class, ...))).isEmpty();
 * }</pre>
 */
public final class ComplianceContracts {
  private static final List<Class<?>> ALL =
      List.of(
          QueueAdminContract.class,
          DeadLetterConfigContract.class,
          EnqueueContract.class,
          TransactionalEnqueueContract.class,
          LeaseContract.class,
          LeaseTypeFilterContract.class,
          SettleContract.class,
          CompletionWindowContract.class,
          PoisonContract.class,
          CrashLoopContract.class,
          CrashEvidenceContract.class,
          BackoffContract.class,
          StreamContract.class,
          PriorityContract.class,
          DeadLetterContract.class,
          DeadGroupsContract.class,
          ExpiryContract.class,
          ManualRetryContract.class,
          RetryNowContract.class,
          RedriveContract.class,
          StreamRedriveContract.class,
          LineageContract.class,
          LeaseHoldersContract.class,
          CompletedRetentionContract.class,
          FlowLimitContract.class,
          CircuitContract.class,
          DropAndImportContract.class,
          StatsContract.class,
          BadInputContract.class,
          ConcurrencyContract.class,
          StoreFailureContract.class,
          IdPrefixContract.class,
          BatchCompleteContract.class,
          BatchFailContract.class,
          ListingContract.class,
          PayloadFieldContract.class,
          QueueDeclarationContract.class,
          MigrationContract.class,
          MetricsContract.class,
          UndeliveredLeaseContract.class,
          SettleMixContract.class,
          SettleThenLeaseContract.class,
          WorkflowStoreContract.class,
          WorkflowCommitContract.class,
          WorkflowCheckpointContract.class,
          ActivityResultContract.class,
          ThroughputContract.class,
          WorkflowOperationsContract.class,
          WorkflowNodesContract.class,
          KnownHistoryContract.class,
          StickyLeaseContract.class,
          UniqueKeyContract.class,
          UniqueKeyLifecycleContract.class,
          ScheduleContract.class,
          ObjectiveContract.class,
          WhatIfContract.class,
          LiveWorkersContract.class);

  private ComplianceContracts() {}

  /** Every contract class, in a stable order. */
  public static List<Class<?>> all() {
    return ALL;
  }

  /** The contracts that none of {@code testClasses} extends. */
  public static List<Class<?>> uncovered(Collection<Class<?>> testClasses) {
    return ALL.stream()
        .filter(contract -> testClasses.stream().noneMatch(contract::isAssignableFrom))
        .toList();
  }
}
