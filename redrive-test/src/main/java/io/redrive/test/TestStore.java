package io.redrive.test;

import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A store opened for one test class and what undoes it: a temporary SQLite file deleted with its
 * directory, or a PostgreSQL schema of its own dropped with everything in it.
 *
 * @param store the store the engine runs on
 * @param sqliteFile the SQLite file, or null on PostgreSQL
 * @param schema the PostgreSQL schema, or null on SQLite
 * @param cleanup removes the file or schema once the engine (and with it the store) is closed
 */
record TestStore(Store store, Path sqliteFile, String schema, Runnable cleanup) {

  /** Opens Redrive's tables in a new temporary SQLite file. */
  static TestStore sqlite() {
    Path dir;
    try {
      dir = Files.createTempDirectory("redrive-test-");
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a temporary directory for SQLite", e);
    }
    SqliteStore store = SqliteStore.inDirectory(dir);
    return new TestStore(store, store.file(), null, () -> deleteTree(dir));
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(TestStore::deleteQuietly);
    } catch (IOException e) {
      // A leftover temporary directory must not fail the test run.
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // as above
    }
  }
}
