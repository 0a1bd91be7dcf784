import io.redrive.testkit.TestPostgres;

/** The examples' stand-in for an application's test database URL. */
final class TestDatabase {
  private TestDatabase() {}

  static String url() {
    return TestPostgres.adminUrl();
  }
}
