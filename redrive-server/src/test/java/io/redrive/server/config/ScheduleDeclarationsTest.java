package io.redrive.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.message.Message;
import io.redrive.schedule.CatchUp;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.sqlite.SqliteStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleDeclarationsTest {
  private static final Path FILE = Path.of("redrive.toml");

  @TempDir Path dir;
  private SqliteStore store;
  private Redrive redrive;
  private final ConfigLoader loader = new ConfigLoader(name -> null);

  @BeforeEach
  void open() {
    store = SqliteStore.open(dir.resolve("redrive.db"), 2);
    redrive = Redrive.builder(store).build();
  }

  @AfterEach
  void close() {
    store.close();
  }

  private String apply(String toml) {
    return ScheduleDeclarations.apply(redrive, loader.parse(toml, FILE));
  }

  @Test
  void apply_messageAndWorkflowSchedules_createdThenUnchanged() {
    String toml =
        """
        [queues.reports]
        [schedules.nightly-report]
        cron = "30 2 * * *"
        zone = "Europe/Berlin"
        queue = "reports"
        type = "build-report"
        payload = "{}"
        headers = { source = "toml" }
        jitter = "30s"
        catchUp = "all:10"
        [schedules.billing]
        every = "5m"
        workflow = "billing-run"
        input = "{\\"month\\":1}"
        """;
    QueueDeclarations.apply(redrive, loader.parse(toml, FILE));
    assertThat(apply(toml))
        .isEqualTo(
            "declared schedules: created [nightly-report, billing]; updated []; unchanged []");
    assertThat(apply(toml))
        .isEqualTo(
            "declared schedules: created []; updated []; unchanged [nightly-report, billing]");

    ScheduleInfo nightly = redrive.schedules().find("nightly-report").orElseThrow();
    assertThat(nightly.schedule().spec())
        .isEqualTo(ScheduleSpec.cron("30 2 * * *", "Europe/Berlin"));
    assertThat(nightly.schedule().target())
        .isEqualTo(
            new ScheduleTarget.Message(
                "reports", "build-report", "{}", Map.of("source", "toml"), null, null));
    assertThat(nightly.schedule().jitter()).isEqualTo(Duration.ofSeconds(30));
    assertThat(nightly.schedule().catchUp()).isEqualTo(CatchUp.all(10));
    assertThat(redrive.schedules().find("billing").orElseThrow().schedule().target())
        .isEqualTo(new ScheduleTarget.Workflow("billing-run", "{\"month\":1}", null));
  }

  private static String schedule(String extra) {
    return "[queues.reports]\n[schedules.hourly]\nevery = \"1h\"\nqueue = \"reports\"\n"
        + "type = \"t\"\n"
        + extra;
  }

  private boolean paused() {
    return redrive.schedules().find("hourly").orElseThrow().schedule().paused();
  }

  @Test
  void apply_withoutPaused_createsItRunning_andKeepsAnOperatorsPauseAndResume() {
    String toml = schedule("");
    QueueDeclarations.apply(redrive, loader.parse(toml, FILE));
    apply(toml);
    assertThat(paused()).isFalse();
    redrive.schedules().pause("hourly");
    assertThat(apply(toml)).contains("unchanged [hourly]");
    assertThat(paused()).as("the operator's pause survives").isTrue();
  }

  @Test
  void apply_pausedTrue_createsItPaused_andPausesItAgainAtEachStart() {
    String toml = schedule("paused = true\n");
    QueueDeclarations.apply(redrive, loader.parse(toml, FILE));
    assertThat(apply(toml)).contains("created [hourly]");
    assertThat(paused()).isTrue();
    redrive.schedules().resume("hourly");
    assertThat(apply(toml)).contains("updated [hourly]");
    assertThat(paused()).as("the file says paused").isTrue();
    assertThat(apply(toml)).contains("unchanged [hourly]");
  }

  @Test
  void apply_pausedFalse_resumesAnOperatorsPauseAtStart() {
    String toml = schedule("paused = false\n");
    QueueDeclarations.apply(redrive, loader.parse(toml, FILE));
    apply(toml);
    redrive.schedules().pause("hourly");
    assertThat(apply(toml)).contains("updated [hourly]");
    assertThat(paused()).as("the file says not paused").isFalse();
    assertThat(redrive.schedules().find("hourly").orElseThrow().nextDueAt()).isNotNull();
  }

  @Test
  void apply_priorityAndLimitKey_goIntoTheMessageTarget_andBadOnesAreNamed() {
    String toml = schedule("priority = 6\nlimitKey = \"tenant-1\"\n");
    QueueDeclarations.apply(redrive, loader.parse(toml, FILE));
    apply(toml);
    ScheduleTarget.Message m =
        (ScheduleTarget.Message)
            redrive.schedules().find("hourly").orElseThrow().schedule().target();
    assertThat(m.priority()).isEqualTo(6);
    assertThat(m.limitKey()).isEqualTo("tenant-1");
    Message fired = redrive.getMessage(redrive.schedules().triggerNow("hourly").producedId());
    assertThat(fired.priority()).isEqualTo(6);
    assertThat(fired.limitKey()).isEqualTo("tenant-1");

    assertThatThrownBy(() -> loader.parse(schedule("priority = 10\n"), FILE))
        .hasMessage("redrive.toml: schedules.hourly.priority: must be between 0 and 9, was 10");
    assertThatThrownBy(() -> loader.parse(schedule("paused = \"yes\"\n"), FILE))
        .hasMessageStartingWith("redrive.toml: schedules.hourly.paused: ");
    assertThatThrownBy(
            () ->
                loader.parse(
                    "[schedules.w]\nevery = \"1m\"\nworkflow = \"w\"\npriority = 1\n", FILE))
        .hasMessageContaining("is only for a message target");
  }

  @Test
  void parse_badSchedules_refusedNamingTheField() {
    assertThatThrownBy(() -> loader.parse("[schedules.a]\nqueue = \"q\"\ntype = \"t\"", FILE))
        .hasMessageContaining("schedules.a")
        .hasMessageContaining("give either cron or every");
    assertThatThrownBy(
            () ->
                loader.parse(
                    "[schedules.a]\ncron = \"61 * * * *\"\nqueue = \"q\"\ntype = \"t\"", FILE))
        .hasMessageContaining("invalid expression \"61 * * * *\"");
    assertThatThrownBy(
            () ->
                loader.parse(
                    "[schedules.a]\nevery = \"1m\"\nqueue = \"q\"\nworkflow = \"w\"", FILE))
        .hasMessageContaining("give either queue");
    assertThatThrownBy(
            () ->
                loader.parse(
                    "[schedules.a]\nevery = \"1m\"\nqueue = \"q\"\ntype = \"t\"\nfoo = 1", FILE))
        .hasMessageContaining("foo");
  }

  @Test
  void apply_missingQueue_refusedNamingTheSchedule() {
    assertThatThrownBy(
            () -> apply("[schedules.a]\nevery = \"1m\"\nqueue = \"nowhere\"\ntype = \"t\""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("schedules.a: queue \"nowhere\" does not exist");
  }
}
