package io.redrive.testkit.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.queue.QueuePolicy;
import io.redrive.schedule.CatchUp;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three scheduler nodes in child JVMs on one database fire a one-second schedule; three times the
 * node that is firing is stopped inside its firing transaction, just before the commit, and killed
 * there with SIGKILL ({@code kill -9}: {@link Process#destroyForcibly} on Linux) while its
 * transaction is open and its locks held, and a new node replaces it. Every due time of the run
 * then has exactly one message: none lost to a dead firer, none doubled by the one that took over.
 */
public abstract class ScheduleKillScenario extends ProcessScenarioBase {
  private static final int NODES = 3;
  private static final int KILLS = 3;

  private final Map<Integer, Process> nodes = new ConcurrentHashMap<>();
  private Path arm;

  @AfterEach
  void killNodes() {
    nodes.values().forEach(Process::destroyForcibly);
  }

  private Process startNode(int n) {
    List<String> command = ChildWorker.javaCommand(SchedulerProcess.class);
    command.add(arm.toString());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(logDir.resolve("scheduler-" + n + ".log").toFile());
    builder.environment().put(WorkerProcess.ENV_DATABASE, db.address().encode());
    try {
      Process p = builder.start();
      nodes.put(n, p);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private boolean ready(int n) {
    return logged(n, "READY ");
  }

  private boolean logged(int n, String prefix) {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                Files.newInputStream(logDir.resolve("scheduler-" + n + ".log")),
                StandardCharsets.UTF_8))) {
      return r.lines().anyMatch(l -> l.startsWith(prefix));
    } catch (IOException e) {
      return false;
    }
  }

  /** The node that froze in a firing, once one has. */
  private Optional<Integer> frozen() {
    return nodes.keySet().stream().filter(n -> logged(n, FrozenCommits.FROZEN)).findFirst();
  }

  private List<Message> produced() {
    return redrive.listMessages(MessageQuery.all("ticks").withLimit(1000)).messages();
  }

  @Test
  @Timeout(120)
  void firingNodeKilledBeforeCommit_everyDueTimeHasExactlyOneMessage() throws Exception {
    arm = logDir.resolve("arm");
    redrive.createQueue("ticks", QueuePolicy.defaults());
    redrive
        .schedules()
        .save(
            Schedule.builder(
                    "tick",
                    ScheduleSpec.every(Duration.ofSeconds(1)),
                    ScheduleTarget.message("ticks", "tick", "{}"))
                .catchUp(CatchUp.all(100))
                .build());
    int started = 0;
    for (; started < NODES; started++) {
      startNode(started);
    }
    for (int n = 0; n < NODES; n++) {
      int node = n;
      eventually().atMost(STARTUP).until(() -> ready(node));
    }

    int kills = 0;
    while (kills < KILLS) {
      Files.createFile(arm);
      eventually().until(() -> frozen().isPresent());
      int node = frozen().orElseThrow();
      assertThat(Files.exists(arm)).as("the arm was taken by the node that froze").isFalse();
      Process firing = nodes.remove(node);
      assertThat(firing.isAlive()).as("the frozen node is still in its firing").isTrue();
      firing.destroyForcibly(); // SIGKILL inside the open firing transaction
      assertThat(firing.waitFor(15, TimeUnit.SECONDS)).isTrue();
      assertThat(firing.exitValue()).as("killed by SIGKILL").isEqualTo(WorkerProcess.HALT_STATUS);
      kills++;
      int next = started++;
      startNode(next);
      eventually().atMost(STARTUP).until(() -> ready(next));
    }
    int before = produced().size();
    eventually().until(() -> produced().size() >= before + 3);
    for (Process p : nodes.values()) {
      p.getOutputStream().close();
    }
    for (Process p : nodes.values()) {
      p.waitFor(15, TimeUnit.SECONDS);
    }

    List<Instant> dues = new ArrayList<>();
    for (Message m : produced()) {
      dues.add(Instant.parse(m.headers().get(Schedule.HEADER_DUE)));
    }
    dues.sort(null);
    assertThat(dues).doesNotHaveDuplicates().hasSizeGreaterThanOrEqualTo(KILLS + 3);
    for (int i = 1; i < dues.size(); i++) {
      assertThat(Duration.between(dues.get(i - 1), dues.get(i)))
          .as("due times %s and %s are one second apart (none lost)", dues.get(i - 1), dues.get(i))
          .isEqualTo(Duration.ofSeconds(1));
    }
  }
}
