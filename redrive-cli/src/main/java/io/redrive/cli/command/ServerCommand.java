package io.redrive.cli.command;

import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import io.redrive.error.StoreException;
import io.redrive.server.PortInUseException;
import io.redrive.server.RedriveServer;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.config.ConfigException;
import io.redrive.server.config.ServerConfig;
import io.redrive.workflow.WorkflowRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code redrive server}: runs the HTTP API until SIGTERM/SIGINT. Settings come from {@code
 * redrive.toml} ({@code --config}, else {@code ./redrive.toml} when present, else the defaults);
 * flags override the file.
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the Redrive server (HTTP API) until stopped with SIGTERM or Ctrl-C.",
      "Settings come from redrive.toml (--config, else ./redrive.toml when present);",
      "flags override the file. Declared queues are created or updated at start.",
      "The workflow flags (--node-id ... --activity-lease-timeout) configure the",
      "--workflows runtime, as the [workflows] keys of redrive.toml do."
    })
public final class ServerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      description = "Address to listen on (default 127.0.0.1; others need API keys).")
  String bind;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "Port (default 7070; 0 picks a free one).")
  Integer port;

  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Option(
      names = "--workflows",
      paramLabel = "CLASS#METHOD",
      description = {
        "Run a workflow runtime in the server for this registry: a public static method",
        "returning a WorkflowRegistry, loaded from --jar; \"demo\" runs the tour's welcome",
        "orchestration. Activities the registry does not register are left to other workers."
      })
  String workflows;

  @Option(
      names = "--jar",
      paramLabel = "FILE",
      description = "A jar (or classes directory) with the --workflows registry; repeatable.")
  List<Path> jars;

  @Mixin WorkflowOptions workflowOptions = new WorkflowOptions();

  @Option(
      names = "--json",
      description = "Print the start line and any failure as JSON ({\"error\": {\"code\", ...}}).")
  boolean json;

  @Option(
      names = {"-v", "--verbose"},
      description = "With a failure, print its stack trace too.")
  boolean verbose;

  /** Reads the environment; tests replace it. */
  static Map<String, String> environment = System.getenv();

  @Override
  public Integer call() {
    Output output = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), json);
    RedriveServer server;
    try {
      ServerConfig settings = settings();
      WorkflowRegistry registry = registry();
      KeyAuthorizer authorizer = new KeyAuthorizer(settings.keys());
      // Declared queues are created or merged by the server before it listens.
      server =
          registry == null
              ? RedriveServer.start(settings, authorizer)
              : RedriveServer.start(settings, authorizer, registry);
      server.stopOnShutdown();
      if (json) {
        output
            .out()
            .println(
                ApiClient.object()
                    .put("listening", server.baseUrl())
                    .put("store", describe(settings))
                    .put("declared", server.declared().toString()));
        output.out().flush();
      } else {
        if (!settings.queues().isEmpty()) {
          output.line(server.declared().toString());
        }
        output.line(
            "Redrive server listening on " + server.baseUrl() + " (" + describe(settings) + ")");
        output.line("stop it with Ctrl-C or SIGTERM");
      }
    } catch (RuntimeException e) {
      return ExitCode.report(startFailure(e), output, verbose);
    }
    try {
      new CountDownLatch(1).await(); // until the shutdown hook stops the server and the JVM exits
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.stop();
    return 0;
  }

  /**
   * The registry of {@code --workflows}, or null. The server's runtime runs turns, and activities
   * only when the registry registers some: unregistered ones stay for workers in other languages.
   */
  private WorkflowRegistry registry() {
    if (workflows == null) {
      if (jars != null && !jars.isEmpty()) {
        throw CliException.usage("--jar: give --workflows CLASS#METHOD too");
      }
      String flag = workflowOptions.firstGiven();
      if (flag != null) {
        throw CliException.usage(flag + ": give --workflows CLASS#METHOD too");
      }
      return null;
    }
    return workflows.equals("demo")
        ? DemoWorkflows.registry()
        : RegistryLoader.load("--workflows", jars, workflows);
  }

  /** Known start failures as one line with a code; anything else stays as it is (a bug). */
  static RuntimeException startFailure(RuntimeException e) {
    if (e instanceof PortInUseException) {
      return new CliException(0, "PORT_IN_USE", e.getMessage(), e);
    }
    if (e instanceof StoreException) {
      return new CliException(0, CliException.STORE_UNAVAILABLE, e.getMessage(), e);
    }
    if (e instanceof ConfigException) {
      return new CliException(0, CliException.USAGE_CONFIG, e.getMessage(), e);
    }
    return e;
  }

  /** The file's settings (or the defaults) with the flags applied. */
  ServerConfig settings() {
    ServerConfig settings = storeOptions.settings(environment);
    if (bind != null) {
      settings = settings.withBind(bind);
    }
    if (port != null) {
      settings = settings.withPort(port);
    }
    return settings.withWorkflows(workflowOptions.over(settings.workflows()));
  }

  private static String describe(ServerConfig settings) {
    String where = settings.store().where();
    String auth =
        settings.keys().isEmpty()
            ? "no API keys: loopback only"
            : settings.keys().size() + (settings.keys().size() == 1 ? " API key" : " API keys");
    return where + ", " + auth;
  }
}
