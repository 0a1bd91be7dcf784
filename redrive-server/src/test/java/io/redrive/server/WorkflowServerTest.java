package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.config.WorkflowSettings;
import io.redrive.store.Store;
import io.redrive.workflow.WorkflowRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * A server running a workflow runtime from a registry ({@code redrive server --workflows}): its
 * {@code [workflows]} settings in force, the start log naming what it registered, the runtime's
 * meters on {@code /metrics}, the node on {@code GET /v1/workflow-nodes}, and a start of an
 * orchestration no live node runs answered with a warning.
 */
class WorkflowServerTest {
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Logger serverLog = (Logger) LoggerFactory.getLogger(RedriveServer.class);
  private StoreKind.TestDb db;
  private Store store;
  private RedriveServer server;

  private static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Greet",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> "hello " + ctx.callActivity("Upper", in, String.class).await())
        .orchestration("Greet", "1.1.0", String.class, String.class, (ctx, in) -> "hi " + in)
        .activity("Upper", String.class, String.class, (ctx, in) -> in.toUpperCase())
        .build();
  }

  @BeforeEach
  void captureLog() {
    appender.start();
    serverLog.addAppender(appender);
  }

  @AfterEach
  void stop() {
    serverLog.detachAppender(appender);
    if (server != null) {
      server.stop();
    }
    if (store != null) {
      store.close();
      db.drop().run();
    }
  }

  private HttpApiClient start(StoreKind kind) {
    db = kind.newDatabase();
    store = db.open();
    ServerConfig config =
        TestServers.config()
            .withWorkflows(
                new WorkflowSettings(
                    "node-7",
                    "build-42",
                    3,
                    5,
                    4,
                    Duration.ofMillis(10),
                    Duration.ofMillis(50),
                    List.of("wf.extra"),
                    100,
                    Duration.ofMillis(50),
                    Duration.ofSeconds(20),
                    50,
                    Duration.ofMillis(300)));
    server = RedriveServer.start(config, TestServers.ALLOW_ALL, store, registry());
    return new HttpApiClient(server.baseUrl());
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void start_logsSettingsAndRegistrations(StoreKind kind) {
    start(kind);

    assertThat(appender.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .contains(
            "workflow runtime started: node node-7, build build-42, orchestrationConcurrency 3,"
                + " activityConcurrency 5",
            "workflow orchestrations registered: Greet [1.0.0, 1.1.0]",
            "workflow activities registered: Upper (queue wf.activities)");
    assertThat(server.redrive().getQueue("wf.extra").workflowOwned()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void workflowRun_turnMetersOnMetrics(StoreKind kind) {
    HttpApiClient api = start(kind);

    Response started =
        api.post("/v1/workflows", "{\"name\":\"Greet\",\"version\":\"1.0.0\",\"input\":\"ada\"}");
    assertThat(started.status()).as(started.toString()).isEqualTo(201);
    assertThat(started.json().has("warning")).isFalse();
    String id = started.get("id").asText();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> api.get("/v1/workflows/" + id).get("status").asText().equals("COMPLETED"));

    String scrape = api.get("/metrics").body();
    assertThat(scrape)
        .containsPattern(
            "redrive_workflow_turns_total\\{[^}]*name=\"Greet\"[^}]*outcome=\"COMMITTED\"[^}]*\\}"
                + " [1-9]");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void nodes_listTheServersRuntime_andStartsOfOthersWarn(StoreKind kind) {
    HttpApiClient api = start(kind);

    Response nodes = api.get("/v1/workflow-nodes");
    Response unknown = api.post("/v1/workflows", "{\"name\":\"Ship\",\"delay\":\"1h\"}");
    Response unknownVersion =
        api.post("/v1/workflows", "{\"name\":\"Greet\",\"version\":\"2.0.0\",\"delay\":\"1h\"}");

    assertThat(nodes.status()).as(nodes.toString()).isEqualTo(200);
    JsonNode node = nodes.get("nodes").get(0);
    assertThat(nodes.get("nodes")).hasSize(1);
    assertThat(node.get("nodeId").asText()).isEqualTo("node-7");
    assertThat(node.get("buildId").asText()).isEqualTo("build-42");
    assertThat(node.get("orchestrations").toString())
        .isEqualTo("{\"Greet\":[\"1.0.0\",\"1.1.0\"]}");
    assertThat(node.get("activities").toString()).isEqualTo("{\"Upper\":\"wf.activities\"}");
    assertThat(node.get("orchestrationConcurrency").asInt()).isEqualTo(3);
    assertThat(node.get("activityConcurrency").asInt()).isEqualTo(5);
    assertThat(node.get("startedAt").asText()).isNotEmpty();
    assertThat(node.get("lastSeenAt").asText()).isNotEmpty();
    assertThat(unknown.status()).as(unknown.toString()).isEqualTo(201);
    assertThat(unknown.get("warning").asText())
        .isEqualTo(
            "no live node runs orchestration \"Ship\"; the instance waits until a node that"
                + " registers it starts");
    assertThat(unknownVersion.status()).isEqualTo(201);
    assertThat(unknownVersion.get("warning").asText())
        .startsWith("no live node runs version 2.0.0 of orchestration \"Greet\"");
  }
}
