package io.redrive.test;

import javax.sql.DataSource;
import org.sqlite.SQLiteDataSource;

/** The application's transaction on the kit's SQLite file. */
@RedriveTest
class SqliteTransactionTest extends TransactionContract {
  @Override
  DataSource appDataSource(TestRedrive kit) {
    SQLiteDataSource ds = new SQLiteDataSource();
    ds.setUrl("jdbc:sqlite:" + kit.sqliteFile().orElseThrow());
    return ds;
  }
}
