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
 * How {@link WorkflowPeers} and {@link QueuePeers} run their systems: each in its own child JVM
 * (same java, same class path) on a fresh database of the server per system and repetition, the
 * systems alternating (their order reversed every other repetition). A child is given {@code system
 * adminUrl databaseUrl database} and then the runner's own arguments, and prints its rounds as
 * {@link PeerRound} lines; everything else it prints goes to standard error.
 */
final class PeerChildren {
  private static final Pattern URL = Pattern.compile("(jdbc:postgresql://[^/]+/)([^?]*)(.*)");

  /** The systems run, in the order given, and each repetition's rounds. */
  record Rounds(List<String> systems, List<List<PeerRound>> byRepetition) {}

  private PeerChildren() {}

  /**
   * Runs {@code child} as a command line asks: {@code [repetitions] [systems] [child
   * arguments...]}, each argument left out taking its value from {@code defaults} (as many as there
   * are arguments).
   */
  static Rounds run(Class<?> child, String[] args, String... defaults)
      throws IOException, InterruptedException {
    if (args.length > defaults.length) {
      throw new IllegalArgumentException(
          "at most " + defaults.length + " arguments, got " + args.length);
    }
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of(defaults).subList(args.length, defaults.length));
    List<String> systems = List.of(all.get(1).split(","));
    return new Rounds(
        systems,
        run(adminUrl(), Integer.parseInt(all.get(0)), systems, child, all.subList(2, all.size())));
  }

  /** The server {@code REDRIVE_PG_URL} names, else the benchmark's embedded one. */
  static String adminUrl() {
    String env = System.getenv("REDRIVE_PG_URL");
    return env != null && !env.isBlank() ? env.trim() : DurablePostgres.adminUrl();
  }

  /**
   * Runs {@code child} for every system in every repetition and answers each repetition's rounds.
   */
  static List<List<PeerRound>> run(
      String adminUrl, int repetitions, List<String> systems, Class<?> child, List<String> args)
      throws IOException, InterruptedException {
    String tag = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    List<List<PeerRound>> byRepetition = new ArrayList<>();
    for (int rep = 1; rep <= repetitions; rep++) {
      List<String> order = new ArrayList<>(systems);
      if (rep % 2 == 0) {
        Collections.reverse(order);
      }
      List<PeerRound> rounds = new ArrayList<>();
      for (String system : order) {
        String database = "peers_" + tag + "_" + system.replace('-', '_') + "_" + rep;
        admin(adminUrl, "CREATE DATABASE " + database);
        try {
          List<String> command =
              new ArrayList<>(
                  List.of(
                      javaCommand(),
                      "-cp",
                      System.getProperty("java.class.path"),
                      child.getName(),
                      system,
                      adminUrl,
                      withDatabase(adminUrl, database),
                      database));
          command.addAll(args);
          List<PeerRound> got = child(command);
          System.err.printf("repetition %d, %s: %s%n", rep, system, got);
          rounds.addAll(got);
        } finally {
          admin(adminUrl, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
      }
      byRepetition.add(rounds);
    }
    return byRepetition;
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
