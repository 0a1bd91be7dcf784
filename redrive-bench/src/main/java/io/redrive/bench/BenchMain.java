package io.redrive.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.redrive.bench.contender.DurablePostgres;
import io.redrive.bench.contender.PostgresTarget;
import io.redrive.bench.contender.SqliteTarget;
import io.redrive.bench.contender.Target;
import io.redrive.bench.scenario.Cell;
import io.redrive.bench.scenario.DepthScenario;
import io.redrive.bench.scenario.DrainScenario;
import io.redrive.bench.scenario.EnqueueScenario;
import io.redrive.bench.scenario.FailureScenario;
import io.redrive.bench.scenario.Nodes;
import io.redrive.bench.scenario.Scenario;
import io.redrive.bench.scenario.Sizes;
import io.redrive.bench.scenario.SteadyScenario;
import io.redrive.bench.scenario.StreamScenario;
import io.redrive.time.DurationText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark command: runs the chosen scenarios on the chosen stores, Redrive and the raw-SQL
 * baseline interleaved per repetition, and writes {@code docs/benchmarks.md} and a JSON file. Exits
 * 1 when a correctness check failed or a cell could not run.
 */
@Command(
    name = "redrive-bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks Redrive against the raw-SQL baseline on SQLite and PostgreSQL.")
public final class BenchMain implements Callable<Integer> {
  private static final List<String> ALL_SCENARIOS =
      List.of("enqueue", "drain", "steady", "failure", "depth", "streams");

  @Option(
      names = "--stores",
      split = ",",
      defaultValue = "sqlite,postgres",
      description = "Stores to run on (default: ${DEFAULT-VALUE}).")
  List<String> stores;

  @Option(
      names = "--scenarios",
      split = ",",
      defaultValue = "enqueue,drain,steady,failure,depth,streams",
      description = "Scenarios to run (default: ${DEFAULT-VALUE}).")
  List<String> scenarios;

  @Option(
      names = "--profile",
      defaultValue = "full",
      description = "smoke (seconds, for CI) or full (default: ${DEFAULT-VALUE}).")
  String profile;

  @Option(
      names = "--reps",
      description = "Repetitions per cell (default: 3; 1 with --profile smoke).")
  Integer reps;

  @Option(
      names = "--scale",
      defaultValue = "1",
      description = "Multiplies every message count (not depth sizes) (default: ${DEFAULT-VALUE}).")
  double scale;

  @Option(
      names = "--depth-sizes",
      split = ",",
      description =
          "Ready backlogs of the depth scenario (full default: 10000,1000000; add"
              + " 10000000 for the issue's largest, which takes long to fill).")
  List<Long> depthSizes;

  @Option(
      names = "--steady-seconds",
      description = "Duration of each steady-state run (smoke 3, full 120).")
  Integer steadySeconds;

  @Option(
      names = "--completion-window",
      description =
          "The engines' completion window in the drain, steady, failure and streams scenarios"
              + " (default: the engine's, 5m; 0s turns it off to measure its cost).")
  String completionWindow;

  @Option(
      names = "--out",
      defaultValue = "docs/benchmarks.md",
      description = "Markdown output (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = "--json",
      defaultValue = "target/bench/results.json",
      description = "JSON output (default: ${DEFAULT-VALUE}).")
  Path json;

  @Option(
      names = "--pg-url",
      description =
          "PostgreSQL JDBC url with credentials; else REDRIVE_PG_URL, else an embedded server"
              + " started with fsync, synchronous_commit and full_page_writes on.")
  String pgUrl;

  @Option(
      names = "--work-dir",
      description = "Where the SQLite files go (default: the temp directory).")
  Path workDir;

  @Option(
      names = "--note",
      description = "A line for the report's header, e.g. \"measured while other builds ran\".")
  String note;

  private String[] args = new String[0];

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command as {@code main} would, without exiting; returns the exit code. */
  public static int execute(String... args) {
    BenchMain main = new BenchMain();
    main.args = args.clone();
    return new CommandLine(main).execute(args);
  }

  @Override
  public Integer call() throws IOException {
    Sizes sizes = sizes();
    int repetitions = reps != null ? reps : "smoke".equals(profile) ? 1 : 3;
    if (repetitions < 1) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--reps: must be at least 1, was " + repetitions);
    }
    for (String s : scenarios) {
      if (!ALL_SCENARIOS.contains(s)) {
        throw new CommandLine.ParameterException(
            new CommandLine(this), "--scenarios: unknown scenario \"" + s + "\"");
      }
    }
    long started = System.nanoTime();
    String startedAt = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString();
    List<Target> targets = targets();
    try {
      Map<String, Machine.DatabaseInfo> databases = new LinkedHashMap<>();
      for (Target t : targets) {
        databases.put(t.name(), new Machine.DatabaseInfo(t.version(), t.settings()));
      }
      Machine machine = Machine.describe(databases);
      List<BenchResult.ScenarioResult> results = new ArrayList<>();
      BenchResult result = result(startedAt, started, repetitions, machine, results);
      for (String name : ALL_SCENARIOS) {
        if (scenarios.contains(name)) {
          results.add(run(scenario(name, sizes), targets, repetitions));
          // written after every scenario, so a long run stopped late still leaves its tables
          result = result(startedAt, started, repetitions, machine, results);
          write(result);
        }
      }
      boolean passed = result.checksPassed();
      log(
          String.format(
              Locale.ROOT,
              "done in %.0f s; checks %s; wrote %s and %s",
              result.seconds(),
              passed ? "passed" : "FAILED",
              out,
              json));
      return passed ? 0 : 1;
    } finally {
      for (Target t : targets) {
        t.close();
      }
    }
  }

  private BenchResult result(
      String startedAt,
      long started,
      int repetitions,
      Machine machine,
      List<BenchResult.ScenarioResult> results) {
    boolean passed =
        results.stream()
            .allMatch(
                s -> s.errors().isEmpty() && s.cells().stream().allMatch(CellResult::checksPassed));
    return new BenchResult(
        startedAt,
        profile,
        "java -jar redrive-bench/target/redrive-bench.jar " + String.join(" ", args),
        repetitions,
        (System.nanoTime() - started) / 1e9,
        note,
        machine,
        List.copyOf(results),
        passed);
  }

  private Sizes sizes() {
    Sizes base =
        switch (profile) {
          case "smoke" -> Sizes.smoke();
          case "full" -> Sizes.full();
          default ->
              throw new CommandLine.ParameterException(
                  new CommandLine(this), "--profile: smoke or full, was \"" + profile + "\"");
        };
    Sizes sizes = scale == 1 ? base : base.scaled(scale);
    if (depthSizes != null) {
      sizes = sizes.withDepthSizes(depthSizes);
    }
    if (steadySeconds != null) {
      sizes = sizes.withSteady(Duration.ofSeconds(steadySeconds));
    }
    if (completionWindow != null) {
      Nodes.setCompletionWindow(DurationText.parse("--completion-window", completionWindow));
    }
    return sizes;
  }

  private List<Target> targets() {
    List<Target> out = new ArrayList<>();
    for (String s : stores) {
      switch (s) {
        case "sqlite" -> out.add(new SqliteTarget(workDir));
        case "postgres" -> out.add(new PostgresTarget(postgresUrl()));
        default ->
            throw new CommandLine.ParameterException(
                new CommandLine(this), "--stores: sqlite or postgres, was \"" + s + "\"");
      }
    }
    return out;
  }

  /** {@code --pg-url}, else {@code REDRIVE_PG_URL}, else the embedded server (durable settings). */
  private String postgresUrl() {
    if (pgUrl != null && !pgUrl.isBlank()) {
      return pgUrl;
    }
    String env = System.getenv("REDRIVE_PG_URL");
    return env != null && !env.isBlank() ? env.trim() : DurablePostgres.adminUrl();
  }

  private static Scenario scenario(String name, Sizes sizes) {
    return switch (name) {
      case "enqueue" -> new EnqueueScenario(sizes);
      case "drain" -> new DrainScenario(sizes);
      case "steady" -> new SteadyScenario(sizes);
      case "failure" -> new FailureScenario(sizes);
      case "depth" -> new DepthScenario(sizes);
      case "streams" -> new StreamScenario(sizes);
      default -> throw new IllegalArgumentException("scenario: unknown, was " + name);
    };
  }

  private static BenchResult.ScenarioResult run(Scenario scenario, List<Target> targets, int reps) {
    List<CellResult> cells = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (Target target : targets) {
      for (Cell cell : scenario.cells(target)) {
        try (cell) {
          cells.add(runCell(scenario, target, cell, reps));
        } catch (Exception e) {
          String error = target.name() + " " + cell.params() + ": " + e;
          errors.add(error);
          log("[" + scenario.name() + "] FAILED " + error);
        }
      }
    }
    return new BenchResult.ScenarioResult(
        scenario.name(), scenario.title(), scenario.about(), cells, errors);
  }

  private static CellResult runCell(Scenario scenario, Target target, Cell cell, int reps)
      throws Exception {
    List<Measurement> ours = new ArrayList<>();
    List<Measurement> baseline = new ArrayList<>();
    List<Check> checks = new ArrayList<>();
    boolean hasBaseline = cell.baselineLabel() != null;
    for (int rep = 0; rep < cell.reps(reps); rep++) {
      Measurement o = cell.runOurs();
      ours.add(o);
      checks.addAll(o.checks());
      if (hasBaseline) {
        Measurement b = cell.runBaseline();
        baseline.add(b);
        checks.addAll(b.checks());
      }
    }
    SideResult oursSide = SideResult.of(cell.oursLabel(), ours);
    SideResult baseSide = hasBaseline ? SideResult.of(cell.baselineLabel(), baseline) : null;
    Double ratio = baseSide == null ? null : oursSide.median() / baseSide.median();
    CellResult result =
        new CellResult(
            scenario.name(),
            target.name(),
            cell.params(),
            cell.unit(),
            oursSide,
            baseSide,
            ratio,
            checks);
    log(
        String.format(
            Locale.ROOT,
            "[%s] %s %s: ours %s %s%s%s",
            scenario.name(),
            target.name(),
            cell.params(),
            MarkdownReport.number(oursSide.median()),
            cell.unit(),
            baseSide == null
                ? ""
                : String.format(
                    Locale.ROOT,
                    ", baseline %s, ratio %.2f",
                    MarkdownReport.number(baseSide.median()),
                    ratio),
            result.checksPassed() ? "" : " CHECK FAILED"));
    return result;
  }

  private void write(BenchResult result) throws IOException {
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    Files.writeString(out, MarkdownReport.render(result), StandardCharsets.UTF_8);
    if (json.getParent() != null) {
      Files.createDirectories(json.getParent());
    }
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), result);
  }

  private static void log(String line) {
    System.err.println(line);
  }
}
