package io.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import org.junit.jupiter.api.Test;

/** {@code redrive completion}: picocli's bash/zsh completion script for every command. */
class CompletionCommandTest {
  @Test
  void completion_printsABashScriptCoveringTheCommands() {
    Cli.Result r = Cli.run("completion");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith("#!/usr/bin/env bash")
        .contains("complete -F _complete_redrive")
        .contains("work")
        .contains("lease")
        .contains("redrive")
        .contains("--dead-letter-queue");
    assertThat(r.err()).isEmpty();
  }
}
