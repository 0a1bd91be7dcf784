package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.cli.testing.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

/** Command lines refused before any request: usage errors exit 2 and name the problem. */
class ArgumentsTest {
  /** Nothing listens here; a command that got this far would exit 6, not 2. */
  private static final String NOWHERE = "http://127.0.0.1:9";

  @Test
  void backoff_exponentialAndFixed_becomeTheApiObject() {
    var conv = new Converters.BackoffValue();

    assertThat(conv.convert("exponential:1m:2:1h").toString())
        .isEqualTo(
            "{\"kind\":\"exponential\",\"initial\":\"1m\",\"multiplier\":2.0,\"max\":\"1h\"}");
    assertThat(conv.convert("fixed:30000ms").toString())
        .isEqualTo("{\"kind\":\"fixed\",\"cooldown\":\"30s\"}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"linear:1s", "fixed", "exponential:1m:x:1h", "fixed:soon"})
  void backoff_malformed_isRefused(String value) {
    assertThatThrownBy(() -> new Converters.BackoffValue().convert(value))
        .isInstanceOf(TypeConversionException.class);
  }

  @Test
  void retry_shortForm_becomesAttemptsAndCooldown() {
    assertThat(new Converters.RetryValue().convert("3:30s").toString())
        .isEqualTo("{\"attempts\":3,\"cooldown\":\"30s\"}");
  }

  @Test
  void policyOptions_deadLetterQueue_impliesMoveAndOnlyUpdateClearsExpiry() {
    PolicyOptions p = new PolicyOptions();
    p.deadLetterQueue = "orders.dlq";
    p.expireAfter = "none";
    p.streamPolicy = "halt";

    assertThat(p.into(PolicyOptions.empty(), true).toString())
        .isEqualTo(
            "{\"expireAfter\":null,\"deadLetterQueue\":\"orders.dlq\",\"streamPolicy\":\"HALT\"}");
    assertThatThrownBy(() -> p.into(PolicyOptions.empty(), false))
        .hasMessageContaining("only queue update clears");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "queue create q --backoff sometimes",
        "queue create q --lease-timeout 30",
        "queue create q --retry 3:30s --max-attempts 4",
        "queue create q --dead-letter move",
        "queue create q --dead-letter keep --dead-letter-queue dlq",
        "queue update q",
        "queue",
        "queue frobnicate",
        "enqueue q",
        "enqueue q --type t --payload not-json",
        "enqueue q --type t --delay soon",
        "message retry",
        "message retry abcd --queue q --all-dead",
        "message retry --queue q",
        "message retry --queue q --all-dead --status dead",
        "message retry --queue q --status broken",
        "message retry abcd --type t",
        "message drop",
        "message drop --queue q",
        "message drop abcd --state dead",
        "queue redrive dlq --dead-since yesterday"
      })
  void refusedCommandLine_exitsTwoWithoutCallingTheServer(String line) {
    String[] args = (line + " --server " + NOWHERE).split(" ");
    if (line.equals("queue") || line.equals("queue frobnicate")) {
      args = line.split(" ");
    }

    Cli.Result r = Cli.run(args);

    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).isNotBlank().doesNotContain("cannot reach");
  }

  @Test
  void dropByFilter_withoutYes_saysWhy() {
    Cli.Result r = Cli.run("message", "drop", "--queue", "q", "--server", NOWHERE);

    assertThat(r.err()).contains("add --yes");
  }

  @Test
  void help_listsEveryCommand() {
    Cli.Result r = Cli.run("--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out().lines().map(String::strip).map(l -> l.split(" ")[0]))
        .contains("demo", "server", "queue", "enqueue", "message", "import");
  }
}
