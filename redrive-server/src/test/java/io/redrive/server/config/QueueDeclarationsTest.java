package io.redrive.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.redrive.Redrive;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.StreamPolicy;
import io.redrive.retry.FixedBackoff;
import io.redrive.retry.Jitter;
import io.redrive.sqlite.SqliteStore;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueueDeclarationsTest {
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

  private QueueDeclarations.Summary apply(String toml) {
    return QueueDeclarations.apply(redrive, loader.parse(toml, FILE));
  }

  @Test
  void apply_missingQueue_createdWithDefaultsPlusDeclaredFields() {
    QueueDeclarations.Summary s =
        apply(
            "[queues.emails]\nretry = { attempts = 3, cooldown = \"30s\" }\nexpireAfter = \"1d\"");

    assertThat(s.created()).containsExactly("emails");
    assertThat(s.updated()).isEmpty();
    assertThat(redrive.getQueue("emails").policy())
        .isEqualTo(
            QueuePolicy.defaults()
                .withRetry(3, Duration.ofSeconds(30))
                .withExpireAfter(Duration.ofDays(1)));
  }

  @Test
  void apply_existingQueue_mergesOnlyDeclaredFields() {
    redrive.createQueue(
        "orders",
        QueuePolicy.defaults()
            .withMaxAttempts(9)
            .withStreamPolicy(StreamPolicy.RELEASE)
            .withLeaseTimeout(Duration.ofSeconds(10)));

    QueueDeclarations.Summary s = apply("[queues.orders]\nleaseTimeout = \"45s\"");

    assertThat(s.updated()).containsExactly("orders");
    QueuePolicy p = redrive.getQueue("orders").policy();
    assertThat(p.leaseTimeout()).isEqualTo(Duration.ofSeconds(45));
    assertThat(p.maxAttempts()).isEqualTo(9);
    assertThat(p.streamPolicy()).isEqualTo(StreamPolicy.RELEASE);
  }

  @Test
  void apply_twice_secondRunChangesNothing() {
    String toml = "[queues.a]\nmaxAttempts = 3\n[queues.b]";
    assertThat(apply(toml).created()).containsExactly("a", "b");

    QueueDeclarations.Summary again = apply(toml);

    assertThat(again.created()).isEmpty();
    assertThat(again.updated()).isEmpty();
    assertThat(again.unchanged()).containsExactly("a", "b");
    assertThat(again.toString())
        .isEqualTo("declared queues: created []; updated []; unchanged [a, b]");
  }

  @Test
  void apply_deadLetterQueueDeclaredAfterItsUser_createdFirst() {
    QueueDeclarations.Summary s =
        apply(
            """
            [queues.emails]
            deadLetterQueue = "emails.dlq"

            [queues."emails.dlq"]
            maxAttempts = 1
            """);

    assertThat(s.created()).containsExactly("emails.dlq", "emails");
    assertThat(redrive.getQueue("emails").policy().deadLetter())
        .isEqualTo(DeadLetter.moveTo("emails.dlq"));
    assertThat(redrive.getQueue("emails.dlq").policy().maxAttempts()).isEqualTo(1);
  }

  @Test
  void apply_deadLetterQueueOnlyInTheStore_accepted() {
    redrive.createQueue("shared.dlq");

    QueueDeclarations.Summary s = apply("[queues.sms]\ndeadLetterQueue = \"shared.dlq\"");

    assertThat(s.created()).containsExactly("sms");
    assertThat(redrive.getQueue("sms").policy().deadLetter())
        .isEqualTo(DeadLetter.moveTo("shared.dlq"));
  }

  @Test
  void apply_deadLetterQueueNowhere_reportedWithPath() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> apply("[queues.sms]\ndeadLetterQueue = \"missing\""));

    assertThat(e.path()).isEqualTo("queues.sms.deadLetterQueue");
    assertThat(e.getMessage())
        .isEqualTo(
            "redrive.toml: queues.sms.deadLetterQueue: queue \"missing\" does not exist (create it"
                + " before naming it as \"sms\"'s dead-letter queue)");
    assertThat(redrive.listQueues()).isEmpty();
  }

  @Test
  void apply_deadLetterQueueWithItsOwnInTheStore_reportedWithPath() {
    redrive.createQueue("c");
    redrive.createQueue("b", QueuePolicy.defaults().withDeadLetter(DeadLetter.moveTo("c")));

    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> apply("[queues.a]\ndeadLetterQueue = \"b\""));

    assertThat(e.getMessage())
        .isEqualTo(
            "redrive.toml: queues.a.deadLetterQueue: queue \"b\" already has its own dead-letter"
                + " queue \"c\" (dead-letter queues cannot be chained)");
  }

  @Test
  void apply_queueThatIsAStoredQueuesDeadLetterQueue_cannotGetOne() {
    redrive.createQueue("b");
    redrive.createQueue("a", QueuePolicy.defaults().withDeadLetter(DeadLetter.moveTo("b")));

    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> apply("[queues.b]\ndeadLetterQueue = \"c\"\n[queues.c]"));

    assertThat(e.path()).isEqualTo("queues.b.deadLetterQueue");
    assertThat(e.problem())
        .isEqualTo(
            "queue \"b\" is the dead-letter queue of \"a\" and cannot have one itself"
                + " (dead-letter queues cannot be chained)");
  }

  @Test
  void apply_switchingDeadLetterQueueToKeep_beforeItIsUsed() {
    redrive.createQueue("c");
    redrive.createQueue("b", QueuePolicy.defaults().withDeadLetter(DeadLetter.moveTo("c")));

    QueueDeclarations.Summary s =
        apply("[queues.a]\ndeadLetterQueue = \"b\"\n[queues.b]\ndeadLetter = \"keep\"");

    assertThat(s.updated()).containsExactly("b");
    assertThat(s.created()).containsExactly("a");
    assertThat(redrive.getQueue("b").policy().deadLetter()).isEqualTo(DeadLetter.keep());
  }

  @Test
  void apply_withoutFile_pathOnly() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                QueueDeclarations.apply(
                    redrive, loader.parse("[queues.a]\ndeadLetterQueue = \"zz\"", null).queues()));
    assertThat(e.file()).isNull();
    assertThat(e.getMessage()).startsWith("queues.a.deadLetterQueue: queue \"zz\" does not exist");
  }

  @Test
  void apply_retryShortForm_storedAsFixedBackoff() {
    apply("[queues.a]\nretry = { attempts = 4, cooldown = \"2m\" }");
    QueuePolicy p = redrive.getQueue("a").policy();
    assertThat(p.maxAttempts()).isEqualTo(4);
    assertThat(p.backoff()).isEqualTo(new FixedBackoff(Duration.ofMinutes(2)));
  }

  @Test
  void apply_backoffJitter_insideTheBackoffOrAloneWithRetry() {
    apply(
        "[queues.a]\nbackoff = { kind = \"fixed\", cooldown = \"10s\", jitter = \"equal\" }\n"
            + "[queues.b]\nretry = { attempts = 4, cooldown = \"2m\" }\n"
            + "backoff = { jitter = \"full\" }");
    assertThat(redrive.getQueue("a").policy().backoff())
        .isEqualTo(new FixedBackoff(Duration.ofSeconds(10), Jitter.EQUAL));
    assertThat(redrive.getQueue("b").policy().backoff())
        .isEqualTo(new FixedBackoff(Duration.ofMinutes(2), Jitter.FULL));
  }

  @Test
  void apply_badJitter_namesTheSetting() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                apply(
                    "[queues.a]\nbackoff = { kind = \"fixed\", cooldown = \"1s\", jitter = \"x\" }"));
    assertThat(e.getMessage()).contains("backoff.jitter: must be one of NONE, FULL, EQUAL, was x");
  }

  @Test
  void apply_circuit_givenFieldsAndDefaults() {
    apply("[queues.a]\ncircuit = { failures = 3, probeInterval = \"5s\", waves = [1, 10] }");
    assertThat(redrive.getQueue("a").policy().circuit())
        .isEqualTo(
            new io.redrive.queue.CircuitPolicy(
                3, Duration.ofSeconds(30), Duration.ofSeconds(5), java.util.List.of(1, 10), false));
  }

  @Test
  void apply_badCircuit_namesTheSetting() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> apply("[queues.a]\ncircuit = { waves = [5, 1] }"));
    assertThat(e.getMessage()).contains("circuit.waves: each wave must be between 1 and 100000");
  }
}
