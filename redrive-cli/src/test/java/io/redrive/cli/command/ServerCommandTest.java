package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.RedriveCommand;
import io.redrive.cli.testing.Cli;
import io.redrive.server.config.ConfigLoader;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.config.StoreSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code redrive server}: settings from file and flags, declared queues, serving until stopped. */
class ServerCommandTest {
  @TempDir Path dir;

  @Test
  void server_withConfigFile_appliesDeclaredQueuesAndServesUntilInterrupted() throws Exception {
    Path file = dir.resolve("redrive.toml");
    Files.writeString(
        file,
        "[server]\nport = 7070\n\n[queues.\"emails.dlq\"]\n\n[queues.emails]\n"
            + "retry = { attempts = 3, cooldown = \"30s\" }\ndeadLetterQueue = \"emails.dlq\"\n");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = RedriveCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    AtomicInteger exit = new AtomicInteger(-1);
    Thread thread =
        new Thread(
            () ->
                exit.set(
                    cli.execute(
                        "server",
                        "--config",
                        file.toString(),
                        "--port",
                        "0",
                        "--data-dir",
                        dir.resolve("data").toString())));
    thread.start();
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("listening on"));
      Matcher url = Pattern.compile("listening on (http://\\S+)").matcher(out.toString());
      assertThat(url.find()).isTrue();

      Cli.Result list = Cli.run("queue", "list", "--server", url.group(1));

      assertThat(out.toString())
          .contains("declared queues: created [emails.dlq, emails]")
          .contains("SQLite at " + dir.resolve("data").resolve("redrive.db"));
      assertThat(list.exit()).as(list.toString()).isZero();
      assertThat(list.out()).contains("emails.dlq").containsPattern("emails\\s+no\\s+3");
    } finally {
      thread.interrupt();
      thread.join(30_000);
    }
    assertThat(exit.get()).as(err.toString()).isZero();
    assertThat(Files.exists(dir.resolve("data").resolve("redrive.db"))).isTrue();
  }

  @Test
  void server_workflowsFlags_badRegistryOrJarAloneExitBeforeServing() {
    io.redrive.cli.testing.Cli.Result jarAlone =
        io.redrive.cli.testing.Cli.run(
            "server", "--port", "0", "--data-dir", dir.toString(), "--jar", "app.jar");
    io.redrive.cli.testing.Cli.Result missingJar =
        io.redrive.cli.testing.Cli.run(
            "server",
            "--port",
            "0",
            "--data-dir",
            dir.toString(),
            "--workflows",
            "com.example.Flows#registry",
            "--jar",
            dir.resolve("nope.jar").toString());
    io.redrive.cli.testing.Cli.Result noMethod =
        io.redrive.cli.testing.Cli.run(
            "server", "--port", "0", "--data-dir", dir.toString(), "--workflows", "Flows");

    assertThat(jarAlone.exit()).as(jarAlone.toString()).isEqualTo(2);
    assertThat(jarAlone.err()).contains("--workflows");
    assertThat(missingJar.exit()).as(missingJar.toString()).isEqualTo(1);
    assertThat(missingJar.err()).contains("no such file");
    assertThat(noMethod.exit()).as(noMethod.toString()).isEqualTo(2);
    assertThat(noMethod.err()).contains("CLASS#METHOD");
  }

  @Test
  void settings_flagsOverrideTheFile() throws Exception {
    Path file = dir.resolve("redrive.toml");
    Files.writeString(
        file,
        "[server]\nport = 8080\n\n[store]\nkind = \"postgres\"\npgUrl = \"jdbc:postgresql://db/x\"\npgUser = \"app\"\n");
    ServerCommand command = new ServerCommand();
    new CommandLine(command)
        .parseArgs(
            "--config",
            file.toString(),
            "--port",
            "9090",
            "--bind",
            "localhost",
            "--pg-schema",
            "redrive");
    ServerCommand.environment = java.util.Map.of("REDRIVE_PG_PASSWORD", "pw-from-env");
    try {
      ServerConfig settings = command.settings();

      assertThat(settings.port()).isEqualTo(9090);
      assertThat(settings.bind()).isEqualTo("localhost");
      StoreSettings store = settings.store();
      assertThat(store.kind()).isEqualTo(StoreSettings.Kind.POSTGRES);
      assertThat(store.pgUrl()).isEqualTo("jdbc:postgresql://db/x");
      assertThat(store.pgUser()).isEqualTo("app");
      assertThat(store.pgPassword()).isEqualTo("pw-from-env");
      assertThat(store.pgSchema()).isEqualTo("redrive");
    } finally {
      ServerCommand.environment = System.getenv();
    }
  }

  @Test
  void settings_storeFlagSwitchesToSqliteInTheDataDir() {
    ServerCommand command = new ServerCommand();
    new CommandLine(command).parseArgs("--store", "sqlite", "--data-dir", dir.toString());

    StoreSettings store = command.settings().store();

    assertThat(store.kind()).isEqualTo(StoreSettings.Kind.SQLITE);
    assertThat(store.dataDir()).isEqualTo(dir);
  }

  @Test
  void badStore_exitsTwo() {
    Cli.Result r =
        Cli.run("server", "--store", "mysql", "--port", "0", "--data-dir", dir.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--store: expected sqlite or postgres");
  }

  @Test
  void invalidConfigFile_exitsTwoNamingTheSetting() throws Exception {
    Path file = dir.resolve("redrive.toml");
    Files.writeString(file, "[server]\nportt = 1\n");

    Cli.Result r = Cli.run("server", "--config", file.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("portt");
  }

  @Test
  void invalidConfigFile_json_isTheErrorObjectWithCodeConfig() throws Exception {
    Path file = dir.resolve("redrive.toml");
    Files.writeString(file, "[server]\nportt = 1\n");

    Cli.Result r = Cli.run("server", "--config", file.toString(), "--json");

    assertThat(r.exit()).isEqualTo(2);
    JsonNode error = new ObjectMapper().readTree(r.err()).get("error");
    assertThat(error.get("code").asText()).isEqualTo("CONFIG");
    assertThat(error.get("message").asText()).contains("portt");
  }

  @Test
  void portInUse_oneLineNamingThePort_exitsOne_storeUntouched() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      Path data = dir.resolve("data");

      Cli.Result r =
          Cli.run("server", "--port", String.valueOf(port), "--data-dir", data.toString());

      assertThat(r.exit()).isEqualTo(1);
      assertThat(r.err())
          .isEqualTo(
              "error: port "
                  + port
                  + " is in use on 127.0.0.1 (another Redrive server?) (PORT_IN_USE)\n");
      assertThat(r.out()).isEmpty();
      assertThat(data).doesNotExist();
    }
  }

  @Test
  void portInUse_json_isTheErrorObject() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();

      Cli.Result r =
          Cli.run("server", "--port", String.valueOf(port), "--data-dir", dir.toString(), "--json");

      assertThat(r.exit()).isEqualTo(1);
      JsonNode error = new ObjectMapper().readTree(r.err()).get("error");
      assertThat(error.get("code").asText()).isEqualTo("PORT_IN_USE");
      assertThat(error.get("message").asText()).startsWith("port " + port + " is in use");
    }
  }

  @Test
  void unreachablePostgres_oneLine_exitsSix_stackTraceOnlyWithVerbose() {
    String[] args = {
      "server", "--store", "postgres", "--pg-url", "jdbc:postgresql://127.0.0.1:1/x", "--port", "0"
    };

    Cli.Result plain = Cli.run(args);
    String[] verboseArgs = java.util.Arrays.copyOf(args, args.length + 1);
    verboseArgs[args.length] = "--verbose";
    Cli.Result verbose = Cli.run(verboseArgs);

    assertThat(plain.exit()).isEqualTo(6);
    assertThat(plain.err().lines()).hasSize(1);
    assertThat(plain.err())
        .startsWith("error: cannot connect to PostgreSQL at jdbc:postgresql://127.0.0.1:1/x")
        .endsWith("(STORE_UNAVAILABLE)\n");
    assertThat(verbose.exit()).isEqualTo(6);
    assertThat(verbose.err().lines().count()).isGreaterThan(3);
    assertThat(verbose.err()).contains("\tat ");
  }

  @Test
  void unreachablePostgres_passwordInUrl_neverPrinted() {
    for (String url :
        List.of(
            "jdbc:postgresql://127.0.0.1:1/x?user=me&password=secret",
            "jdbc:postgresql://me:secret@127.0.0.1:1/x",
            "jdbc:postgresql://127.0.0.1:1/x;password=secret")) {
      for (String extra : List.of("--verbose", "--json")) {
        Cli.Result r = Cli.run("server", "--pg-url", url, "--port", "0", extra);

        assertThat(r.exit()).as(url + " " + extra).isEqualTo(6);
        assertThat(r.err()).as(url + " " + extra).contains("127.0.0.1:1").doesNotContain("secret");
        assertThat(r.out()).as(url + " " + extra).doesNotContain("secret");
      }
    }
  }

  @Test
  void unreachablePostgres_json_isTheErrorObject() throws Exception {
    Cli.Result r =
        Cli.run("server", "--pg-url", "jdbc:postgresql://127.0.0.1:1/x", "--port", "0", "--json");

    assertThat(r.exit()).isEqualTo(6);
    JsonNode error = new ObjectMapper().readTree(r.err()).get("error");
    assertThat(error.get("code").asText()).isEqualTo("STORE_UNAVAILABLE");
  }

  @Test
  void exampleConfigInDocs_loadsAndDeclaresItsQueues() {
    Path example = Path.of("..", "docs", "redrive.toml");

    ServerConfig config = new ConfigLoader(name -> null).load(example);

    assertThat(config.port()).isEqualTo(7070);
    assertThat(config.store().kind()).isEqualTo(StoreSettings.Kind.SQLITE);
    assertThat(config.store().dataDir().normalize())
        .isEqualTo(Path.of("..", "data").toAbsolutePath().normalize());
    assertThat(config.queues()).hasSize(3);
    assertThat(config.schedules()).hasSize(1);
    assertThat(config.objectives()).hasSize(1);
    assertThat(config.keys()).isEmpty();
  }
}
