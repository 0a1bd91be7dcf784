package io.redrive.bench;

import io.redrive.bench.contender.DurablePostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redrive's workflows against DBOS Transact's on one PostgreSQL server (docs/benchmarks.md,
 * "Workflows against DBOS Transact"): the shapes of {@link WorkflowBench} (three steps one after
 * another; a fan-out of N then waiting for all), each system in its own child JVM ({@link
 * PeerRounds}, same java and class path) on a fresh database per system and repetition, the systems
 * alternating (their order reversed every other repetition). The server is the one {@code
 * REDRIVE_PG_URL} names, or the benchmark's embedded one. Prints one markdown table: instances per
 * second (the median of the repetitions' means, and their range), Redrive over the system (the
 * median of the repetitions' ratios), start-to-end latency per instance (medians of the rounds' p50
 * and p99) and, when the server has {@code pg_stat_statements}, statements, commits and WAL bytes
 * per workflow (medians of the repetitions' means), else "n/a".
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.WorkflowPeers
 * [repetitions] [systems] [sequential] [fanOutInstances] [fanOut] [rounds]}, defaults {@code 3
 * redrive,dbos,dbos-queue 300 20 100 3}; {@code fanOutInstances} 0 runs the 3-step shape alone;
 * system {@code redrive-local} runs Redrive's activities as local activities.
 */
public final class WorkflowPeers {
  private static final Pattern URL = Pattern.compile("(jdbc:postgresql://[^/]+/)([^?]*)(.*)");

  private WorkflowPeers() {}

  public static void main(String[] args) throws Exception {
    int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    List<String> systems =
        List.of((args.length > 1 ? args[1] : "redrive,dbos,dbos-queue").split(","));
    String sequential = args.length > 2 ? args[2] : "300";
    String fanOutInstances = args.length > 3 ? args[3] : "20";
    String fanOut = args.length > 4 ? args[4] : "100";
    String rounds = args.length > 5 ? args[5] : "3";
    String env = System.getenv("REDRIVE_PG_URL");
    String adminUrl = env != null && !env.isBlank() ? env.trim() : DurablePostgres.adminUrl();
    String tag = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    List<List<PeerRound>> byRepetition = new ArrayList<>();
    for (int rep = 1; rep <= repetitions; rep++) {
      List<String> order = new ArrayList<>(systems);
      if (rep % 2 == 0) {
        Collections.reverse(order);
      }
      List<PeerRound> rounds1 = new ArrayList<>();
      for (String system : order) {
        String database = "peers_" + tag + "_" + system.replace('-', '_') + "_" + rep;
        admin(adminUrl, "CREATE DATABASE " + database);
        try {
          List<String> command =
              List.of(
                  javaCommand(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  PeerRounds.class.getName(),
                  system,
                  adminUrl,
                  withDatabase(adminUrl, database),
                  database,
                  sequential,
                  fanOutInstances,
                  fanOut,
                  rounds);
          List<PeerRound> got = child(command);
          System.err.printf("repetition %d, %s: %s%n", rep, system, got);
          rounds1.addAll(got);
        } finally {
          admin(adminUrl, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
      }
      byRepetition.add(rounds1);
    }
    System.out.println(PeerTable.markdown(systems, byRepetition));
  }

  /** Runs one child JVM to its end and answers the rounds it printed; its log goes to stderr. */
  private static List<PeerRound> child(List<String> command)
      throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<PeerRound> rounds = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(PeerRound.PREFIX)) {
          rounds.add(PeerRound.parse(line));
        } else {
          System.err.println(line);
        }
      }
    }
    int exit = p.waitFor();
    if (exit != 0) {
      throw new IllegalStateException("child " + command.get(4) + " exited with " + exit);
    }
    return rounds;
  }

  private static String javaCommand() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** {@code url} with its database replaced by {@code database}. */
  static String withDatabase(String url, String database) {
    Matcher m = URL.matcher(url);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a jdbc:postgresql://host/database url: " + url);
    }
    return m.group(1) + database + m.group(3);
  }

  private static void admin(String adminUrl, String sql) {
    try (Connection c = DriverManager.getConnection(adminUrl);
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + " failed: " + e.getMessage(), e);
    }
  }
}
