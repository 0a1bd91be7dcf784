package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.InstanceExistsException;
import io.redrive.store.InstanceRow;
import io.redrive.store.StartInstanceParams;
import io.redrive.store.StartInstanceParams.IfExists;
import io.redrive.store.StartInstanceResult;
import io.redrive.store.WorkflowStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The workflow store (docs/workflows.md), run unchanged on every store: starting and finding
 * instances so far; leasing and committing turns join as they land.
 */
public abstract class WorkflowStoreContract extends ComplianceTestBase {
  private static final String ID = "order-42";
  private static final String NAME = "ship-order";
  private static final String INPUT = "{\"order\":42}";

  private WorkflowStore workflows() {
    assertThat(store).as("every Redrive store keeps workflows").isInstanceOf(WorkflowStore.class);
    return (WorkflowStore) store;
  }

  private StartInstanceParams start(String id, IfExists ifExists) {
    return new StartInstanceParams(id, NAME, "1.2.0", INPUT, null, ifExists, now());
  }

  @Test
  void start_newId_createsPendingInstance() {
    StartInstanceResult result = workflows().startInstance(start(ID, IfExists.FAIL));

    assertThat(result).isEqualTo(new StartInstanceResult(ID, true));
    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.id()).isEqualTo(ID);
    assertThat(i.name()).isEqualTo(NAME);
    assertThat(i.version()).as("pinned by the first turn").isNull();
    assertThat(i.requestedVersion()).isEqualTo("1.2.0");
    assertThat(i.status()).isEqualTo(InstanceRow.Status.PENDING);
    assertThat(i.status().terminal()).isFalse();
    assertThat(i.executionId()).isEqualTo(1);
    assertThat(i.parentId()).isNull();
    assertThat(i.rootId()).isEqualTo(ID);
    assertThat(i.input()).isEqualTo(INPUT);
    assertThat(i.output()).isNull();
    assertThat(i.failure()).isNull();
    assertThat(i.createdAt()).isEqualTo(now());
    assertThat(i.updatedAt()).isEqualTo(now());
    assertThat(i.completedAt()).isNull();
    assertThat(i.notBefore()).isNull();
    assertThat(i.turnAttempt()).isZero();
    assertThat(i.leasedBy()).isNull();
    assertThat(i.leaseExpiresAt()).isNull();
    assertThat(i.historyEvents()).isZero();
    assertThat(i.historyBytes()).isZero();
  }

  @Test
  void start_withStartAt_holdsTheInstanceUntilThen() {
    Instant at = now().plus(Duration.ofMinutes(5));

    workflows()
        .startInstance(new StartInstanceParams(ID, NAME, null, null, at, IfExists.FAIL, now()));

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.notBefore()).isEqualTo(at);
    assertThat(i.requestedVersion()).isNull();
    assertThat(i.input()).isNull();
  }

  @Test
  void start_takenIdWithFail_isRejectedAndChangesNothing() {
    workflows().startInstance(start(ID, IfExists.FAIL));
    advance(Duration.ofSeconds(1));

    assertThatThrownBy(
            () ->
                workflows()
                    .startInstance(
                        new StartInstanceParams(
                            ID, "other", null, "{}", null, IfExists.FAIL, now())))
        .isInstanceOf(InstanceExistsException.class)
        .hasMessageContaining(ID)
        .satisfies(
            e -> assertThat(((InstanceExistsException) e).code()).isEqualTo("INSTANCE_EXISTS"));

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.name()).isEqualTo(NAME);
    assertThat(i.input()).isEqualTo(INPUT);
    assertThat(i.updatedAt()).isEqualTo(now().minus(Duration.ofSeconds(1)));
  }

  @Test
  void start_takenIdWithReturnExisting_answersTheExistingOneAndChangesNothing() {
    workflows().startInstance(start(ID, IfExists.FAIL));

    StartInstanceResult again =
        workflows()
            .startInstance(
                new StartInstanceParams(
                    ID, "other", null, "{}", null, IfExists.RETURN_EXISTING, now()));

    assertThat(again).isEqualTo(new StartInstanceResult(ID, false));
    assertThat(workflows().findInstance(ID).orElseThrow().name()).isEqualTo(NAME);
  }

  @Test
  void start_onCallerConnection_visibleOnCommitGoneOnRollback() throws SQLException {
    try (Connection connection = db.connect()) {
      connection.setAutoCommit(false);
      workflows().startInstance(connection, start(ID, IfExists.FAIL));
      workflows().startInstance(connection, start("rolled-back", IfExists.FAIL));
      connection.commit();
      workflows().startInstance(connection, start("rolled-back-2", IfExists.FAIL));
      assertThat(connection.getAutoCommit()).as("the transaction stays the caller's").isFalse();
      connection.rollback();
    }

    assertThat(workflows().findInstance(ID)).isPresent();
    assertThat(workflows().findInstance("rolled-back")).isPresent();
    assertThat(workflows().findInstance("rolled-back-2")).isEmpty();
  }

  @Test
  void find_unknownId_isEmpty() {
    assertThat(workflows().findInstance("no-such-instance")).isEmpty();
  }

  @Test
  void startParams_badInput_isRejectedNamingTheField() {
    assertThatThrownBy(() -> start(" ", IfExists.FAIL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instanceId");
    assertThatThrownBy(() -> start(repeat('x', 201), IfExists.FAIL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instanceId")
        .hasMessageContaining("200");
    assertThatThrownBy(
            () -> new StartInstanceParams(ID, "", null, null, null, IfExists.FAIL, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
    assertThatThrownBy(
            () -> new StartInstanceParams("a\nb", NAME, null, null, null, IfExists.FAIL, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("control characters");
    assertThatThrownBy(() -> new StartInstanceParams(ID, NAME, null, null, null, null, now()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("ifExists");
  }
}
