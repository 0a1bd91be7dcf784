package io.redrive.bench.contender;

import java.util.Map;

/** One kind of database the benchmark runs on; hands out a fresh database per run. */
public interface Target extends AutoCloseable {

  /** {@code sqlite} or {@code postgres}, as in results and the command line. */
  String name();

  /** A new, empty database (file or schema) for one run. */
  BenchDatabase newDatabase();

  /** The server or library version as the database reports it. */
  String version();

  /** The settings a reader needs to compare runs: everything not at its default. */
  Map<String, String> settings();

  @Override
  void close();
}
