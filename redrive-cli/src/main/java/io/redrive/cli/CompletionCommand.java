package io.redrive.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code redrive completion}: prints the bash (and zsh) completion script picocli generates. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {
      "Prints a completion script for bash and zsh. Load it in the current shell with",
      "  source <(redrive completion)",
      "or install it: redrive completion > /etc/bash_completion.d/redrive"
    })
public final class CompletionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine root = spec.root().commandLine();
    String script = AutoComplete.bash(root.getCommandName(), root);
    spec.commandLine().getOut().print(script);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
