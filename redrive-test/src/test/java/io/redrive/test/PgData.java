package io.redrive.test;

import io.redrive.testkit.TestPostgres;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/** A data source on the tests' PostgreSQL, standing for an application's own. */
final class PgData {
  private PgData() {}

  static DataSource source() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(TestPostgres.adminUrl());
    return ds;
  }
}
