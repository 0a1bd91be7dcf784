package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive schedule ...} against a real server. */
class ScheduleCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server = TestServer.start(dir);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void create_list_show_pause_resume_trigger_delete() {
    assertThat(server.cli("queue", "create", "reports").exit()).isZero();

    Cli.Result created =
        server.cli(
            "schedule",
            "create",
            "nightly",
            "--cron",
            "30 2 * * *",
            "--zone",
            "Europe/Berlin",
            "--queue",
            "reports",
            "--type",
            "build",
            "--catch-up",
            "all:3");
    assertThat(created.exit()).as(created.toString()).isZero();
    assertThat(created.out())
        .startsWith("saved schedule nightly\n")
        .contains("cron 30 2 * * * (Europe/Berlin)")
        .contains("ALL:3");

    Cli.Result list = server.cli("schedule", "list");
    assertThat(list.out()).contains("nightly").contains("reports / build");
    assertThat(server.cli("schedule", "show", "nightly").out()).contains("next due");
    assertThat(server.cli("schedule", "pause", "nightly").out())
        .isEqualTo("paused schedule nightly\n");
    assertThat(server.cli("schedule", "resume", "nightly").out())
        .isEqualTo("resumed schedule nightly\n");
    assertThat(server.cli("schedule", "trigger", "nightly").out())
        .startsWith("triggered nightly: ");
    assertThat(server.cli("schedule", "delete", "nightly").out())
        .isEqualTo("deleted schedule nightly\n");

    Cli.Result gone = server.cli("schedule", "show", "nightly");
    assertThat(gone.exit()).isNotZero();
    assertThat(gone.err()).contains("SCHEDULE_NOT_FOUND");
  }

  @Test
  void create_withMessageOptionsAndPaused_firesTheMessageAsGiven() throws Exception {
    assertThat(server.cli("queue", "create", "reports").exit()).isZero();

    Cli.Result created =
        server.cli(
            "schedule",
            "create",
            "hourly",
            "--every",
            "1h",
            "--queue",
            "reports",
            "--type",
            "build",
            "--header",
            "tenant=t1",
            "--header",
            "kind=full",
            "--stream",
            "reports-s",
            "--expire-after",
            "30m",
            "--priority",
            "7",
            "--limit-key",
            "tenant-1",
            "--paused",
            "--json");
    assertThat(created.exit()).as(created.toString()).isZero();
    JsonNode schedule = JSON.readTree(created.out());
    assertThat(schedule.get("paused").asBoolean()).isTrue();
    assertThat(schedule.get("priority").asInt()).isEqualTo(7);
    assertThat(server.cli("schedule", "show", "hourly").out())
        .contains("priority")
        .contains("limit key")
        .contains("tenant-1")
        .contains("reports-s")
        .contains("\"kind\":\"full\"");

    Cli.Result fired = server.cli("schedule", "trigger", "hourly", "--json");
    assertThat(fired.exit()).as(fired.toString()).isZero();
    String id = JSON.readTree(fired.out()).get("producedId").asText();
    JsonNode m = JSON.readTree(server.cli("message", "show", id, "--json").out());
    assertThat(m.get("headers").get("tenant").asText()).isEqualTo("t1");
    assertThat(m.get("headers").get("kind").asText()).isEqualTo("full");
    assertThat(m.get("stream").asText()).isEqualTo("reports-s");
    assertThat(m.get("expireAt")).isNotNull();
    assertThat(m.get("priority").asInt()).isEqualTo(7);
    assertThat(m.get("limitKey").asText()).isEqualTo("tenant-1");

    Cli.Result bad =
        server.cli(
            "schedule",
            "create",
            "bad",
            "--every",
            "1h",
            "--queue",
            "reports",
            "--type",
            "b",
            "--priority",
            "10");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("--priority");
    assertThat(server.cli("schedule", "show", "bad").exit()).isNotZero();
  }
}
