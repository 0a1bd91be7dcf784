package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive schedule ...} against a real server. */
class ScheduleCommandsTest {
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
}
