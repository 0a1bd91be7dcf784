/**
 * Redrive's test kit for applications: {@link io.redrive.test.RedriveTest} / {@link
 * io.redrive.test.RedriveExtension} give a JUnit 5 test a real engine ({@link
 * io.redrive.test.TestRedrive}) on a temporary SQLite file or the application's PostgreSQL, with a
 * {@link io.redrive.test.TestClock}.
 */
module io.redrive.test {
  requires transitive io.redrive;
  requires transitive io.redrive.sqlite;
  requires transitive org.junit.jupiter.api;
  requires static io.redrive.postgres;
  requires com.fasterxml.jackson.databind;

  exports io.redrive.test;
}
