package io.redrive.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.redrive.jdbc.MigrationMode;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.StreamPolicy;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigLoaderTest {
  private static final Path FILE = Path.of("redrive.toml");
  private static final String HINT =
      "(use whole numbers with units, largest first: 500ms, 30s, 5m, 1m30s, 2h, 1d)";
  private static final String KEY = "[[keys]]\nname = \"ops\"\nrole = \"admin\"\n";
  private static final String SECRET = "secret = \"ops-secret-0123456789\"\n";
  private static final Map<String, String> ENV =
      Map.of("OPS_KEY", "env-secret-0123456789", "SHORT", "short", "PGPASS", "pg-pass");

  private final ConfigLoader loader = new ConfigLoader(ENV::get);

  static Stream<Arguments> invalid() {
    return Stream.of(
        // ---- the file as a whole ----
        of(
            "unknown section",
            "[serverr]\nport = 1",
            "serverr: unknown setting (known: server, store, keys, queues, workflows, schedules, objectives)"),
        of("section not a table", "server = 1", "server: expected a table, was 1"),
        // ---- [server] ----
        of(
            "unknown server setting",
            "[server]\nprot = 1",
            "server.prot: unknown setting (known: bind, port, maxPayloadBytes, maxRequestBytes, maxLeaseWait, maintenanceInterval, allowedHosts, completionWindow, completedRetention, unservedAfter)"),
        of(
            "port wrong type",
            "[server]\nport = \"x\"",
            "server.port: expected an integer, was \"x\""),
        of("port float", "[server]\nport = 70.5", "server.port: expected an integer, was 70.5"),
        of(
            "port out of range",
            "[server]\nport = 70000",
            "server.port: must be between 0 and 65535, was 70000"),
        of("bind empty", "[server]\nbind = \"\"", "server.bind: must not be empty"),
        of(
            "bind wrong type",
            "[server]\nbind = [1]",
            "server.bind: expected a string, was an array"),
        of(
            "remote bind without keys",
            "[server]\nbind = \"0.0.0.0\"",
            "server.bind: \"0.0.0.0\" is not a loopback address and no API keys are configured; add [[keys]] to listen on it, or bind to 127.0.0.1"),
        of(
            "payload zero",
            "[server]\nmaxPayloadBytes = 0",
            "server.maxPayloadBytes: must be between 1 and 2147483647, was 0"),
        of(
            "payload above request",
            "[server]\nmaxPayloadBytes = 2000\nmaxRequestBytes = 1000",
            "server.maxPayloadBytes: maxPayloadBytes (2000) must not exceed maxRequestBytes (1000): a request carries at least one payload"),
        of(
            "request below default payload",
            "[server]\nmaxRequestBytes = 1000",
            "server.maxRequestBytes: maxPayloadBytes (262144) must not exceed maxRequestBytes (1000): a request carries at least one payload"),
        of(
            "lease wait unknown unit",
            "[server]\nmaxLeaseWait = \"30x\"",
            "server.maxLeaseWait: unknown duration unit \"x\" " + HINT),
        of(
            "lease wait no unit",
            "[server]\nmaxLeaseWait = \"30\"",
            "server.maxLeaseWait: duration \"30\" has no unit " + HINT),
        of(
            "lease wait not a duration",
            "[server]\nmaxLeaseWait = \"soon\"",
            "server.maxLeaseWait: invalid duration \"soon\" " + HINT),
        of(
            "lease wait empty",
            "[server]\nmaxLeaseWait = \"\"",
            "server.maxLeaseWait: duration is empty " + HINT),
        of(
            "lease wait number",
            "[server]\nmaxLeaseWait = 30",
            "server.maxLeaseWait: expected a duration such as \"30s\", was 30"),
        of(
            "lease wait too long",
            "[server]\nmaxLeaseWait = \"2h\"",
            "server.maxLeaseWait: must be at most 1h, was 2h"),
        of(
            "maintenance interval too short",
            "[server]\nmaintenanceInterval = \"0s\"",
            "server.maintenanceInterval: must be between 10ms and 1h, was 0s"),
        of(
            "maintenance interval too long",
            "[server]\nmaintenanceInterval = \"2h\"",
            "server.maintenanceInterval: must be between 10ms and 1h, was 2h"),
        of(
            "completion window too long",
            "[server]\ncompletionWindow = \"8d\"",
            "server.completionWindow: must be at most 7d, was 8d"),
        of(
            "completed retention too long",
            "[server]\ncompletedRetention = \"91d\"",
            "server.completedRetention: must be between 0s (keep nothing) and 90d, was 91d"),
        of(
            "unserved threshold too short",
            "[server]\nunservedAfter = \"10s\"",
            "server.unservedAfter: must be between 30s and 1d, was 10s"),
        // ---- [store] ----
        of(
            "store kind unknown",
            "[store]\nkind = \"mysql\"",
            "store.kind: unknown store kind \"mysql\" (use sqlite or postgres)"),
        of(
            "store unknown setting",
            "[store]\ndatadir = \"x\"",
            "store.datadir: unknown setting (known: kind, migrations, dataDir, pgUrl, pgUser, pgPassword, pgPasswordEnv, pgSchema, poolSize)"),
        of(
            "sqlite with pgUrl",
            "[store]\npgUrl = \"jdbc:postgresql://h/db\"",
            "store.pgUrl: only used when store.kind = \"postgres\""),
        of(
            "sqlite pool too big",
            "[store]\npoolSize = 65",
            "store.poolSize: must be between 1 and 64, was 65"),
        of("sqlite empty dataDir", "[store]\ndataDir = \"\"", "store.dataDir: must not be empty"),
        of(
            "postgres without url",
            "[store]\nkind = \"postgres\"",
            "store.pgUrl: is required when store.kind = \"postgres\""),
        of(
            "postgres url not jdbc",
            "[store]\nkind = \"postgres\"\npgUrl = \"postgres://h/db?password=hunter2\"",
            "store.pgUrl: must be a JDBC url starting with jdbc:postgresql:"),
        of(
            "postgres with dataDir",
            "[store]\nkind = \"postgres\"\ndataDir = \"d\"\npgUrl = \"jdbc:postgresql://h/db\"",
            "store.dataDir: only used when store.kind = \"sqlite\""),
        of(
            "postgres password twice",
            "[store]\nkind = \"postgres\"\npgUrl = \"jdbc:postgresql://h/db\"\npgPassword = \"p\"\npgPasswordEnv = \"PGPASS\"",
            "store.pgPasswordEnv: not together with pgPassword (give one of them)"),
        of(
            "postgres password env unset",
            "[store]\nkind = \"postgres\"\npgUrl = \"jdbc:postgresql://h/db\"\npgPasswordEnv = \"NOPE\"",
            "store.pgPasswordEnv: environment variable \"NOPE\" is not set"),
        of(
            "postgres bad schema",
            "[store]\nkind = \"postgres\"\npgUrl = \"jdbc:postgresql://h/db\"\npgSchema = \"Bad-Schema\"",
            "store.pgSchema: use 1-63 characters of a-z, 0-9 and '_', was \"Bad-Schema\""),
        of(
            "unknown migration mode",
            "[store]\nmigrations = \"sometimes\"",
            "store.migrations: use \"migrate\" or \"validate\", was \"sometimes\""),
        of(
            "postgres pool too big",
            "[store]\nkind = \"postgres\"\npgUrl = \"jdbc:postgresql://h/db\"\npoolSize = 201",
            "store.poolSize: must be between 1 and 200, was 201"),
        // ---- [[keys]] ----
        of(
            "keys as a table",
            "[keys]\nname = \"ops\"",
            "keys: expected an array of tables ([[keys]]), was a table"),
        of("key not a table", "keys = [\"abc\"]", "keys[0]: expected a table, was \"abc\""),
        of(
            "key unknown setting",
            KEY + SECRET + "scope = [\"a\"]",
            "keys[0].scope: unknown setting (known: name, secret, secretEnv, role, queues, workflows)"),
        of(
            "key without name",
            "[[keys]]\nrole = \"admin\"\n" + SECRET,
            "keys[0].name: is required"),
        of(
            "key empty name",
            "[[keys]]\nname = \" \"\nrole = \"admin\"\n" + SECRET,
            "keys[0].name: must not be empty"),
        of("key without secret", KEY, "keys[0].secret: is required (or secretEnv)"),
        of(
            "key secret and secretEnv",
            KEY + SECRET + "secretEnv = \"OPS_KEY\"",
            "keys[0].secretEnv: not together with secret (give one of them)"),
        of(
            "key secretEnv unset",
            KEY + "secretEnv = \"MISSING_VAR\"",
            "keys[0].secretEnv: environment variable \"MISSING_VAR\" is not set"),
        of(
            "key secret short",
            KEY + "secret = \"tooshort\"",
            "keys[0].secret: must be at least 16 characters long"),
        of(
            "key secret from env short",
            KEY + "secretEnv = \"SHORT\"",
            "keys[0].secretEnv: must be at least 16 characters long"),
        of(
            "key secret not a string",
            KEY + "secret = 1234567890123456789",
            "keys[0].secret: expected a string"),
        of(
            "key without role",
            "[[keys]]\nname = \"ops\"\n" + SECRET,
            "keys[0].role: is required (admin, producer, consumer or viewer)"),
        of(
            "key unknown role",
            "[[keys]]\nname = \"ops\"\nrole = \"root\"\n" + SECRET,
            "keys[0].role: unknown role \"root\" (use admin, producer, consumer or viewer)"),
        of(
            "key duplicate name",
            KEY + SECRET + "\n" + KEY + "secret = \"other-secret-0123456789\"",
            "keys[1].name: duplicate key name \"ops\" (also keys[0])"),
        of(
            "key duplicate secret",
            KEY + SECRET + "\n[[keys]]\nname = \"ci\"\nrole = \"viewer\"\n" + SECRET,
            "keys[1].secret: same secret as keys[0] (\"ops\"); every key needs its own"),
        of(
            "key queues empty",
            KEY + SECRET + "queues = []",
            "keys[0].queues: must name at least one queue or pattern (leave it out for every queue)"),
        of(
            "key queues not array",
            KEY + SECRET + "queues = \"orders\"",
            "keys[0].queues: expected an array, was \"orders\""),
        of(
            "key queue pattern not a string",
            KEY + SECRET + "queues = [\"orders\", 5]",
            "keys[0].queues[1]: expected a string, was 5"),
        of(
            "key queue pattern invalid",
            KEY + SECRET + "queues = [\"orders\", \"bad name\"]",
            "keys[0].queues[1]: invalid queue pattern \"bad name\" (use a queue name, or a glob with '*' such as \"orders.*\")"),
        of(
            "key workflows empty",
            KEY + SECRET + "workflows = []",
            "keys[0].workflows: must name at least one orchestration or pattern (leave it out for every one)"),
        of(
            "key workflows not array",
            KEY + SECRET + "workflows = \"order*\"",
            "keys[0].workflows: expected an array, was \"order*\""),
        of(
            "key workflow pattern not a string",
            KEY + SECRET + "workflows = [7]",
            "keys[0].workflows[0]: expected a string, was 7"),
        of(
            "key workflow pattern invalid",
            KEY + SECRET + "workflows = [\"has space\"]",
            "keys[0].workflows[0]: invalid orchestration pattern \"has space\" (use an orchestration name, or a glob with '*' such as \"order*\")"),
        // ---- [queues.<name>] ----
        of("queues not a table", "queues = 1", "queues: expected a table, was 1"),
        of("queue not a table", "[queues]\nemails = 5", "queues.emails: expected a table, was 5"),
        of(
            "queue name invalid",
            "[queues.\"bad name\"]\nmaxAttempts = 1",
            "queues.\"bad name\": invalid queue name \"bad name\" (use 1-200 characters of A-Z, a-z, 0-9, '.', '_', '-')"),
        of(
            "queue unknown setting",
            "[queues.emails]\nmaxAttempt = 3",
            "queues.emails.maxAttempt: unknown setting (known: maxAttempts, leaseTimeout, backoff, retry, expireAfter, deadLetter, deadLetterQueue, streamPolicy, maxCrashes, completedRetention, defaultPriority, priorityAging, maxRunning, maxRunningPerKey, rate, ratePerKey, circuit)"),
        of(
            "dotted queue name unquoted",
            "[queues.emails.dlq]\nmaxAttempts = 3",
            "queues.emails.dlq: unknown setting; a queue name with dots must be quoted, e.g. [queues.\"emails.dlq\"] (known: maxAttempts, leaseTimeout, backoff, retry, expireAfter, deadLetter, deadLetterQueue, streamPolicy, maxCrashes, completedRetention, defaultPriority, priorityAging, maxRunning, maxRunningPerKey, rate, ratePerKey, circuit)"),
        of(
            "maxAttempts wrong type",
            "[queues.a]\nmaxAttempts = \"five\"",
            "queues.a.maxAttempts: expected an integer, was \"five\""),
        of(
            "maxAttempts zero",
            "[queues.a]\nmaxAttempts = 0",
            "queues.a.maxAttempts: must be between 1 and 10000, was 0"),
        of(
            "maxAttempts too many",
            "[queues.a]\nmaxAttempts = 10001",
            "queues.a.maxAttempts: must be between 1 and 10000, was 10001"),
        of(
            "maxAttempts beyond int",
            "[queues.a]\nmaxAttempts = 99999999999",
            "queues.a.maxAttempts: is out of range, was 99999999999"),
        of(
            "leaseTimeout too long",
            "[queues.a]\nleaseTimeout = \"13h\"",
            "queues.a.leaseTimeout: must be between 1ms and 12h, was 13h"),
        of(
            "leaseTimeout zero",
            "[queues.a]\nleaseTimeout = \"0s\"",
            "queues.a.leaseTimeout: must be between 1ms and 12h, was 0s"),
        of(
            "leaseTimeout bad unit",
            "[queues.a]\nleaseTimeout = \"5y\"",
            "queues.a.leaseTimeout: unknown duration unit \"y\" " + HINT),
        of(
            "retry cooldown bad unit",
            "[queues.emails]\nretry = { attempts = 3, cooldown = \"30x\" }",
            "queues.emails.retry.cooldown: unknown duration unit \"x\" " + HINT),
        of(
            "retry with maxAttempts",
            "[queues.a]\nmaxAttempts = 3\nretry = { attempts = 3, cooldown = \"30s\" }",
            "queues.a.retry: not together with maxAttempts (the short form sets both maxAttempts and a fixed backoff)"),
        of(
            "retry with backoff",
            "[queues.a]\nbackoff = { kind = \"fixed\", cooldown = \"1s\" }\nretry = { attempts = 3 }",
            "queues.a.retry: not together with backoff (the short form sets both maxAttempts and a fixed backoff)"),
        of(
            "retry without attempts",
            "[queues.a]\nretry = { cooldown = \"30s\" }",
            "queues.a.retry.attempts: is required (total runs; 0 or 1 means no retry)"),
        of(
            "retry negative attempts",
            "[queues.a]\nretry = { attempts = -1 }",
            "queues.a.retry.attempts: must be between 0 and 10000, was -1"),
        of(
            "retry unknown setting",
            "[queues.a]\nretry = { attempts = 3, delay = \"1s\" }",
            "queues.a.retry.delay: unknown setting (known: attempts, cooldown)"),
        of("retry not a table", "[queues.a]\nretry = 3", "queues.a.retry: expected a table, was 3"),
        of(
            "backoff without kind",
            "[queues.a]\nbackoff = { initial = \"1s\" }",
            "queues.a.backoff.kind: is required (exponential or fixed)"),
        of(
            "backoff unknown kind",
            "[queues.a]\nbackoff = { kind = \"linear\" }",
            "queues.a.backoff.kind: unknown backoff kind \"linear\" (use exponential or fixed)"),
        of(
            "backoff max below initial",
            "[queues.a]\nbackoff = { kind = \"exponential\", initial = \"1h\", max = \"1m\" }",
            "queues.a.backoff.max: must be at least backoff.initial (1h), was 1m"),
        of(
            "backoff multiplier too small",
            "[queues.a]\nbackoff = { kind = \"exponential\", multiplier = 0.5 }",
            "queues.a.backoff.multiplier: must be between 1 and 100, was 0.5"),
        of(
            "backoff multiplier not a number",
            "[queues.a]\nbackoff = { kind = \"exponential\", multiplier = \"2\" }",
            "queues.a.backoff.multiplier: expected a number, was \"2\""),
        of(
            "fixed backoff without cooldown",
            "[queues.a]\nbackoff = { kind = \"fixed\" }",
            "queues.a.backoff.cooldown: is required for a fixed backoff"),
        of(
            "fixed backoff with initial",
            "[queues.a]\nbackoff = { kind = \"fixed\", cooldown = \"1s\", initial = \"1s\" }",
            "queues.a.backoff.initial: unknown setting (known: kind, cooldown, jitter)"),
        of(
            "expireAfter zero",
            "[queues.a]\nexpireAfter = \"0s\"",
            "queues.a.expireAfter: must be positive, was 0s"),
        of(
            "streamPolicy unknown",
            "[queues.a]\nstreamPolicy = \"PAUSE\"",
            "queues.a.streamPolicy: unknown value \"PAUSE\" (use HOLD, HALT or RELEASE)"),
        of(
            "maxCrashes negative",
            "[queues.a]\nmaxCrashes = -1",
            "queues.a.maxCrashes: must be between 0 (off) and 10000, was -1"),
        of(
            "maxRunningPerKey zero",
            "[queues.a]\nmaxRunningPerKey = 0",
            "queues.a.maxRunningPerKey: must be between 1 and 100000 (or absent: no cap), was 0"),
        of(
            "rate not a rate",
            "[queues.a]\nrate = \"fast\"",
            "queues.a.rate: must be leases/period such as \"100/1m\", was \"fast\""),
        of(
            "completedRetention too long",
            "[queues.a]\ncompletedRetention = \"100d\"",
            "queues.a.completedRetention: must be between 0s (keep nothing) and 90d, was 100d"),
        of(
            "defaultPriority too high",
            "[queues.a]\ndefaultPriority = 10",
            "queues.a.defaultPriority: must be between 0 and 9 (higher is served first), was 10"),
        of(
            "priorityAging too short",
            "[queues.a]\npriorityAging = \"500ms\"",
            "queues.a.priorityAging: must be between 1s and 1d, was 500ms"),
        of(
            "deadLetter unknown",
            "[queues.a]\ndeadLetter = \"delete\"",
            "queues.a.deadLetter: unknown value \"delete\" (use keep, move or discard)"),
        of(
            "deadLetter keep with queue",
            "[queues.a]\ndeadLetter = \"keep\"\ndeadLetterQueue = \"b\"",
            "queues.a.deadLetterQueue: only allowed when dead letters are moved, was \"b\""),
        of(
            "deadLetter move without queue",
            "[queues.a]\ndeadLetter = \"move\"",
            "queues.a.deadLetterQueue: queue name is required"),
        of(
            "deadLetterQueue invalid name",
            "[queues.a]\ndeadLetterQueue = \"b c\"",
            "queues.a.deadLetterQueue: invalid queue name \"b c\" (use 1-200 characters of A-Z, a-z, 0-9, '.', '_', '-')"),
        of(
            "deadLetterQueue self",
            "[queues.a]\ndeadLetterQueue = \"a\"",
            "queues.a.deadLetterQueue: queue \"a\" cannot be its own dead-letter queue"),
        of(
            "deadLetterQueue chained",
            "[queues.a]\ndeadLetterQueue = \"b\"\n[queues.b]\ndeadLetterQueue = \"c\"\n[queues.c]",
            "queues.a.deadLetterQueue: queue \"b\" already has its own dead-letter queue \"c\" (dead-letter queues cannot be chained)"),
        of(
            "dead-letter queue given one",
            "[queues.b]\ndeadLetterQueue = \"c\"\n[queues.a]\ndeadLetterQueue = \"b\"\n[queues.x]\ndeadLetterQueue = \"b\"",
            "queues.b.deadLetterQueue: queue \"b\" is the dead-letter queue of \"a\", \"x\" and cannot have one itself (dead-letter queues cannot be chained)"),
        // ---- [workflows] ----
        of(
            "unknown workflows setting",
            "[workflows]\ncacheSize = 10",
            "workflows.cacheSize: unknown setting (known: nodeId, buildId, orchestrationConcurrency, activityConcurrency, maxAttempts, unregisteredBackoff, activityQueues, maxBatch, pollInterval, activityLeaseTimeout, historyCacheSize, stickyWait)"),
        of(
            "sticky wait not a duration",
            "[workflows]\nstickyWait = -1",
            "workflows.stickyWait: expected a duration such as \"30s\", was -1"),
        of(
            "negative history cache",
            "[workflows]\nhistoryCacheSize = -1",
            "workflows.historyCacheSize: must be 0-1000000, was -1"),
        of(
            "negative concurrency",
            "[workflows]\norchestrationConcurrency = -1",
            "workflows.orchestrationConcurrency: must be 1-1024, was -1"),
        of(
            "concurrency wrong type",
            "[workflows]\nactivityConcurrency = \"8\"",
            "workflows.activityConcurrency: expected an integer, was \"8\""),
        of(
            "malformed duration",
            "[workflows]\npollInterval = \"1 sec\"",
            "workflows.pollInterval: unknown duration unit \"sec\" (use whole numbers with units, largest first: 500ms, 30s, 5m, 1m30s, 2h, 1d)"),
        of(
            "zero duration",
            "[workflows]\nactivityLeaseTimeout = \"0s\"",
            "workflows.activityLeaseTimeout: must be positive, was 0s"),
        of(
            "invalid queue name",
            "[workflows]\nactivityQueues = [\"ok\", \"bad queue\"]",
            "workflows.activityQueues: invalid queue name \"bad queue\" (use 1-200 characters of A-Z, a-z, 0-9, '.', '_', '-')"),
        of(
            "backoff max below base",
            "[workflows]\nunregisteredBackoff = { base = \"10s\", max = \"1s\" }",
            "workflows.unregisteredBackoff.max: must be at least the base (10s), was 1s"),
        of(
            "unknown backoff key",
            "[workflows]\nunregisteredBackoff = { initial = \"1s\" }",
            "workflows.unregisteredBackoff.initial: unknown setting (known: base, max)"),
        of(
            "max attempts out of range",
            "[workflows]\nmaxAttempts = 0",
            "workflows.maxAttempts: must be 1-10000, was 0"),
        of(
            "dotted names quoted in path",
            "[queues.\"emails.dlq\"]\nmaxAttempts = 0",
            "queues.\"emails.dlq\".maxAttempts: must be between 1 and 10000, was 0"));
  }

  private static Arguments of(String name, String toml, String message) {
    return Arguments.of(name, toml, message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void parse_invalid_namesFilePathAndProblem(String name, String toml, String message) {
    assertThatThrownBy(() -> loader.parse(toml, FILE))
        .isInstanceOf(ConfigException.class)
        .hasMessage("redrive.toml: " + message)
        .hasMessageNotContaining("secret-0123456789")
        .hasMessageNotContaining("123456789")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void parse_tomlSyntaxError_namesLine() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> loader.parse("[server]\nport = 1\nbind = \n", FILE));
    assertThat(e.getMessage()).startsWith("redrive.toml: invalid TOML at line 3");
    assertThat(e.path()).isNull();
    assertThat(e.file()).isEqualTo(FILE);
  }

  @Test
  void parse_duplicateKey_isAnError() {
    assertThatThrownBy(() -> loader.parse("[server]\nport = 1\nport = 2\n", FILE))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("redrive.toml: invalid TOML");
  }

  @Test
  void configException_exposesFilePathAndProblem() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                loader.parse(
                    "[queues.emails]\nretry = { attempts = 3, cooldown = \"30x\" }", FILE));
    assertThat(e.file()).isEqualTo(FILE);
    assertThat(e.path()).isEqualTo("queues.emails.retry.cooldown");
    assertThat(e.problem()).startsWith("unknown duration unit \"x\"");
    assertThat(e).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void parse_keyWorkflows_scopesOrchestrationNames() {
    ServerConfig c =
        loader.parse(
            KEY + SECRET + "queues = [\"wf.*\"]\nworkflows = [\"order*\", \"Billing\"]", FILE);

    assertThat(c.keys())
        .containsExactly(
            new ApiKey(
                "ops",
                "ops-secret-0123456789",
                Role.ADMIN,
                List.of("wf.*"),
                List.of("order*", "Billing")));
    assertThat(loader.parse(KEY + SECRET, FILE).keys().get(0).workflows()).isEmpty();
  }

  @Test
  void parse_workflows_everyKey() {
    WorkflowSettings w =
        loader
            .parse(
                "[workflows]\nnodeId = \"node-1\"\nbuildId = \"b-7\"\norchestrationConcurrency = 2\n"
                    + "activityConcurrency = 16\nmaxAttempts = 3\n"
                    + "unregisteredBackoff = { base = \"2s\", max = \"30s\" }\n"
                    + "activityQueues = [\"wf.slow\"]\nmaxBatch = 50\npollInterval = \"200ms\"\n"
                    + "activityLeaseTimeout = \"2m\"\nhistoryCacheSize = 0\n"
                    + "stickyWait = \"0s\"\n",
                FILE)
            .workflows();

    assertThat(w)
        .isEqualTo(
            new WorkflowSettings(
                "node-1",
                "b-7",
                2,
                16,
                3,
                Duration.ofSeconds(2),
                Duration.ofSeconds(30),
                List.of("wf.slow"),
                50,
                Duration.ofMillis(200),
                Duration.ofMinutes(2),
                0,
                Duration.ZERO));
    assertThat(loader.parse("", FILE).workflows()).isEqualTo(WorkflowSettings.defaults());
  }

  @Test
  void parse_allowedHosts() {
    assertThat(loader.parse("", FILE).allowedHosts()).isEmpty();
    assertThat(
            loader
                .parse("[server]\nallowedHosts = [\"redrive.internal\", \"10.0.0.5\"]", FILE)
                .allowedHosts())
        .containsExactly("redrive.internal", "10.0.0.5");
    assertThatThrownBy(() -> loader.parse("[server]\nallowedHosts = [\"\"]", null))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("server.allowedHosts[0]");
    assertThatThrownBy(() -> loader.parse("[server]\nallowedHosts = \"x\"", null))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("server.allowedHosts");
  }

  @Test
  void parse_withoutFile_messageHasNoFilePart() {
    assertThatThrownBy(() -> loader.parse("[server]\nport = -1", null))
        .hasMessage("server.port: must be between 0 and 65535, was -1");
  }

  @Test
  void load_missingFile_namesIt(@TempDir Path dir) {
    Path missing = dir.resolve("nope.toml");
    assertThatThrownBy(() -> loader.load(missing))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(missing + ": cannot read the file");
  }

  @Test
  void parse_empty_isTheDefaults(@TempDir Path dir) {
    ServerConfig c = loader.parse("", dir.resolve("redrive.toml"));
    ServerConfig d = ServerConfig.defaults();
    assertThat(c.bind()).isEqualTo(d.bind());
    assertThat(c.port()).isEqualTo(d.port());
    assertThat(c.maxPayloadBytes()).isEqualTo(d.maxPayloadBytes());
    assertThat(c.maxRequestBytes()).isEqualTo(d.maxRequestBytes());
    assertThat(c.maxLeaseWait()).isEqualTo(d.maxLeaseWait());
    assertThat(c.maintenanceInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.completionWindow()).isEqualTo(Duration.ofMinutes(5));
    assertThat(c.keys()).isEmpty();
    assertThat(c.queues()).isEmpty();
    assertThat(c.store().kind()).isEqualTo(StoreSettings.Kind.SQLITE);
    assertThat(c.store().dataDir()).isEqualTo(dir.toAbsolutePath().resolve("data"));
    assertThat(c.source()).isEqualTo(dir.resolve("redrive.toml"));
  }

  @Test
  void load_fullValidFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("redrive.toml");
    Files.writeString(
        file,
        """
        [server]
        bind = "0.0.0.0"
        port = 8080
        maxPayloadBytes = 1024
        maxRequestBytes = 4096
        maxLeaseWait = "20s"
        maintenanceInterval = "250ms"
        completionWindow = "1h"
        completedRetention = "24h"
        unservedAfter = "10m"

        [store]
        kind = "sqlite"
        dataDir = "var/redrive"
        poolSize = 8

        [[keys]]
        name = "ops"
        secret = "ops-secret-0123456789"
        role = "admin"

        [[keys]]
        name = "billing-worker"
        secretEnv = "OPS_KEY"
        role = "consumer"
        queues = ["orders", "billing.*"]

        [queues."emails.dlq"]

        [queues.emails]
        maxAttempts = 7
        leaseTimeout = "45s"
        backoff = { kind = "exponential", initial = "10s", multiplier = 3, max = "10m" }
        expireAfter = "1d"
        deadLetterQueue = "emails.dlq"
        streamPolicy = "halt"
        maxCrashes = 2
        completedRetention = "7d"
        defaultPriority = 5
        priorityAging = "2m"

        [queues.sms]
        completedRetention = "default"
        retry = { attempts = 3, cooldown = "30s" }
        deadLetter = "discard"

        [queues.audit]
        backoff = { kind = "fixed", cooldown = "5m" }
        deadLetter = "keep"
        streamPolicy = "RELEASE"
        """);

    ServerConfig c = loader.load(file);

    assertThat(c.source()).isEqualTo(file);
    assertThat(c.bind()).isEqualTo("0.0.0.0");
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.maxPayloadBytes()).isEqualTo(1024);
    assertThat(c.maxRequestBytes()).isEqualTo(4096);
    assertThat(c.maxLeaseWait()).isEqualTo(Duration.ofSeconds(20));
    assertThat(c.maintenanceInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(c.completionWindow()).isEqualTo(Duration.ofHours(1));
    assertThat(c.completedRetention()).isEqualTo(Duration.ofHours(24));
    assertThat(c.unservedAfter()).isEqualTo(Duration.ofMinutes(10));
    assertThat(c.store())
        .isEqualTo(
            new StoreSettings(
                StoreSettings.Kind.SQLITE,
                dir.toAbsolutePath().resolve("var/redrive"),
                null,
                null,
                null,
                null,
                8));
    assertThat(c.keys())
        .containsExactly(
            new ApiKey("ops", "ops-secret-0123456789", Role.ADMIN, List.of()),
            new ApiKey(
                "billing-worker",
                "env-secret-0123456789",
                Role.CONSUMER,
                List.of("orders", "billing.*")));
    assertThat(c.queues()).containsOnlyKeys("emails.dlq", "emails", "sms", "audit");
    assertThat(c.queues().keySet()).containsExactly("emails.dlq", "emails", "sms", "audit");
    assertThat(c.queues().get("emails.dlq").isEmpty()).isTrue();
    assertThat(c.queues().get("emails"))
        .isEqualTo(
            QueueUpdate.builder()
                .maxAttempts(7)
                .leaseTimeout(Duration.ofSeconds(45))
                .backoff(
                    new ExponentialBackoff(Duration.ofSeconds(10), 3.0, Duration.ofMinutes(10)))
                .expireAfter(Duration.ofDays(1))
                .deadLetter(DeadLetter.moveTo("emails.dlq"))
                .streamPolicy(StreamPolicy.HALT)
                .maxCrashes(2)
                .completedRetention(Duration.ofDays(7))
                .defaultPriority(5)
                .priorityAging(Duration.ofMinutes(2))
                .build());
    assertThat(c.queues().get("sms"))
        .isEqualTo(
            QueueUpdate.builder()
                .clearCompletedRetention()
                .maxAttempts(3)
                .backoff(new FixedBackoff(Duration.ofSeconds(30)))
                .deadLetter(DeadLetter.discard())
                .build());
    assertThat(c.queues().get("audit"))
        .isEqualTo(
            QueueUpdate.builder()
                .backoff(new FixedBackoff(Duration.ofMinutes(5)))
                .deadLetter(DeadLetter.keep())
                .streamPolicy(StreamPolicy.RELEASE)
                .build());
    assertThat(c.toString()).doesNotContain("secret-0123456789");
  }

  @Test
  void retryShortForm_zeroAttempts_meansOneRunAndZeroCooldownByDefault() {
    QueueUpdate u = loader.parse("[queues.a]\nretry = { attempts = 0 }", FILE).queues().get("a");
    assertThat(u.maxAttempts()).isEqualTo(1);
    assertThat(u.backoff()).isEqualTo(new FixedBackoff(Duration.ZERO));
  }

  @Test
  void flowLimits_namedOnes_replaceEveryLimit_noneNamed_keepsThem() {
    QueueUpdate u =
        loader
            .parse(
                "[queues.a]\nmaxRunningPerKey = 1\nrate = \"100/1m\"\n[queues.b]\nmaxAttempts = 3",
                FILE)
            .queues()
            .get("a");
    assertThat(u.clearLimits()).isTrue();
    assertThat(u.limits())
        .isEqualTo(
            new io.redrive.queue.FlowLimits(
                null, 1, io.redrive.queue.Rate.of(100, Duration.ofMinutes(1)), null));
    QueueUpdate b = loader.parse("[queues.b]\nmaxAttempts = 3", FILE).queues().get("b");
    assertThat(b.limits()).isNull();
    assertThat(b.clearLimits()).isNull();
  }

  @Test
  void exponentialBackoff_missingFieldsTakeTheDefaults() {
    QueueUpdate u =
        loader
            .parse("[queues.a]\nbackoff = { kind = \"exponential\", initial = \"2h\" }", FILE)
            .queues()
            .get("a");
    assertThat(u.backoff())
        .isEqualTo(new ExponentialBackoff(Duration.ofHours(2), 2.0, Duration.ofHours(2)));
  }

  @Test
  void dataDir_relativeToTheFile_absoluteKept(@TempDir Path dir) {
    Path file = dir.resolve("conf/redrive.toml");
    assertThat(loader.parse("[store]\ndataDir = \"../data\"", file).store().dataDir())
        .isEqualTo(dir.toAbsolutePath().resolve("data"));
    Path abs = dir.toAbsolutePath().resolve("elsewhere");
    assertThat(loader.parse("[store]\ndataDir = '" + abs + "'", file).store().dataDir())
        .isEqualTo(abs);
  }

  @Test
  void store_migrationsValidate_keptWithEveryStore() {
    assertThat(loader.parse("[store]\nmigrations = \"validate\"", FILE).store().migrations())
        .isEqualTo(MigrationMode.VALIDATE);
    assertThat(
            loader
                .parse(
                    "[store]\nkind = \"postgres\"\npgUrl = \"jdbc:postgresql://h/db\"\n"
                        + "migrations = \"validate\"",
                    FILE)
                .store()
                .migrations())
        .isEqualTo(MigrationMode.VALIDATE);
    assertThat(loader.parse("[store]\n", FILE).store().migrations())
        .isEqualTo(MigrationMode.MIGRATE);
  }

  @Test
  void postgres_settingsAndPasswordFromEnv() {
    ServerConfig c =
        loader.parse(
            """
            [store]
            kind = "postgres"
            pgUrl = "jdbc:postgresql://db:5432/redrive"
            pgUser = "redrive"
            pgPasswordEnv = "PGPASS"
            pgSchema = "queues"
            poolSize = 20
            """,
            FILE);
    assertThat(c.store())
        .isEqualTo(
            new StoreSettings(
                StoreSettings.Kind.POSTGRES,
                null,
                "jdbc:postgresql://db:5432/redrive",
                "redrive",
                "pg-pass",
                "queues",
                20));
    assertThat(c.store().toString()).doesNotContain("pg-pass");
  }

  @Test
  void remoteBind_allowedWithKeys_loopbackAllowedWithout() {
    assertThat(loader.parse("[server]\nbind = \"::\"\n" + KEY + SECRET, FILE).bind())
        .isEqualTo("::");
    assertThat(loader.parse("[server]\nbind = \"localhost\"", FILE).bind()).isEqualTo("localhost");
    assertThat(loader.parse("[server]\nbind = \"::1\"", FILE).bind()).isEqualTo("::1");
  }

  @Test
  void serverConfig_requireKeysForRemoteBind_checksFlagsApplied() {
    ServerConfig c = ServerConfig.defaults().withBind("0.0.0.0");
    assertThatThrownBy(c::requireKeysForRemoteBind)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("bind: \"0.0.0.0\" is not a loopback address");
    c.withKeys(List.of(new ApiKey("k", "k-secret-0123456789", Role.ADMIN, List.of())))
        .requireKeysForRemoteBind();
  }
}
