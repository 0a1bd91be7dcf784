package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.message.MessageIds;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.store.CreateQueueParams;
import io.redrive.store.EnqueueParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.ActivityStart;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An HTTP consumer in any language runs workflow activities with the lease API: {@code complete}
 * (single or in a settle batch) carries a {@code result} on a workflow-owned queue, which the
 * activity's instance receives; the queue shows it is workflow-owned and refuses messages put there
 * by hand.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ActivityResultHttpTest extends ApiTestBase {

  private WorkflowStore workflows() {
    return (WorkflowStore) TestServers.sharedStore(kind);
  }

  /** A workflow-owned queue and {@code count} activity messages of a new instance in it. */
  private String activityQueue(String instanceId, int count) {
    String queue = TestServers.unique("wf-activities");
    Instant now = Instant.now();
    TestServers.sharedStore(kind)
        .createQueue(new CreateQueueParams(queue, QueuePolicy.defaults(), true, now));
    workflows()
        .startInstance(
            new StartInstanceParams(
                instanceId, "ship", null, "{}", null, StartInstanceParams.IfExists.FAIL, now));
    TurnLease turn = null;
    while (turn == null || !turn.instance().id().equals(instanceId)) {
      // Another test's instance (its results waiting on the shared server) is put aside for an
      // hour, so this instance's START row comes up next.
      if (turn != null) {
        workflows()
            .abandonTurn(
                new io.redrive.store.workflow.AbandonTurnParams(
                    turn.instance().id(),
                    turn.token(),
                    Duration.ofHours(1),
                    true,
                    "NODE_ERROR",
                    null,
                    null,
                    now));
      }
      turn =
          workflows()
              .leaseTurn(new LeaseTurnParams("t", Duration.ofMinutes(1), 10, now))
              .orElseThrow();
    }
    List<ActivityStart> activities = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      activities.add(
          new ActivityStart(
              new EnqueueParams.Entry(
                  MessageIds.next(java.time.Clock.systemUTC()),
                  NewMessage.builder(queue, "charge").payload("{\"n\":" + i + "}").build()),
              i + 1,
              "charge",
              0));
    }
    workflows()
        .commitTurn(
            new CommitTurnParams(
                instanceId,
                turn.token(),
                new InstanceUpdate(InstanceRow.Status.RUNNING, 1, "1", "{}", null, null, null),
                List.of(),
                List.of(),
                turn.batch().stream().map(InboxRow::seq).toList(),
                List.of(),
                List.of(),
                activities,
                now));
    return queue;
  }

  private List<String> resultsOf(String instanceId) {
    return workflows().readInbox(instanceId).stream().map(InboxRow::data).toList();
  }

  @Test
  void complete_withResult_theInstanceGetsIt() {
    String instance = TestServers.unique("order");
    String queue = activityQueue(instance, 1);
    JsonNode leased = lease(queue, 1).get(0);

    Response r =
        api.post(
            "/v1/leases/" + leased.get("token").asText() + "/complete",
            "{\"result\": {\"charged\": 1200, \"card\": \"visa\"}}");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(resultsOf(instance))
        .singleElement()
        .asString()
        .contains("\"outcome\":\"COMPLETED\"")
        .contains("\"result\":{\"charged\":1200,\"card\":\"visa\"}");
  }

  @Test
  void settleBatch_completeWithResultAndFail_eachReachesTheInstance() {
    String instance = TestServers.unique("order");
    String queue = activityQueue(instance, 2);
    List<JsonNode> leased = lease(queue, 2);

    Response r =
        api.post(
            "/v1/leases/settle",
            HttpApiClient.json(
                Map.of(
                    "settles",
                    List.of(
                        Map.of(
                            "token", leased.get(0).get("token").asText(),
                            "action", "complete",
                            "result", List.of(1, 2, 3)),
                        Map.of(
                            "token", leased.get(1).get("token").asText(),
                            "action", "fail",
                            "reason", "HANDLER_EXCEPTION",
                            "message", "card declined")))));

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(resultsOf(instance))
        .hasSize(2)
        .anySatisfy(d -> assertThat(d).contains("\"result\":[1,2,3]"))
        .anySatisfy(
            d -> assertThat(d).contains("\"outcome\":\"FAILED\"").contains("card declined"));
    assertThat(lease(queue, 10)).as("the queue never retries an activity").isEmpty();
  }

  @Test
  void resultOnAnotherAction_isRefusedNamingTheField() {
    String instance = TestServers.unique("order");
    String queue = activityQueue(instance, 1);
    JsonNode leased = lease(queue, 1).get(0);

    Response r =
        api.post(
            "/v1/leases/settle",
            HttpApiClient.json(
                Map.of(
                    "settles",
                    List.of(
                        Map.of(
                            "token", leased.get("token").asText(),
                            "action", "release",
                            "result", Map.of("x", 1))))));

    assertError(r, 400, "INVALID_REQUEST");
    assertThat(r.json().path("error").path("message").asText()).contains("result");
    assertThat(resultsOf(instance)).isEmpty();
  }

  @Test
  void workflowOwnedQueue_isShownAsSuch_andRefusesMessagesPutThereByHand() {
    String queue = activityQueue(TestServers.unique("order"), 0);

    Response shown = api.get("/v1/queues/" + queue);
    Response byHand =
        api.post(
            "/v1/queues/" + queue + "/messages",
            HttpApiClient.json(
                Map.of("messages", List.of(Map.of("type", "charge", "payload", 1)))));

    assertThat(shown.status()).as(shown.toString()).isEqualTo(200);
    assertThat(shown.get("workflowOwned").asBoolean()).isTrue();
    assertError(byHand, 400, "INVALID_REQUEST");
    assertThat(byHand.json().path("error").path("message").asText())
        .contains(queue)
        .contains("workflow-owned");
    assertThat(api.get("/v1/queues/" + queue("plain")).get("workflowOwned").asBoolean()).isFalse();
  }
}
