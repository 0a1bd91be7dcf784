package io.redrive.test;

import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The application's transaction on PostgreSQL, the kit's tables in their own schema. */
class PostgresTransactionTest extends TransactionContract {
  @RegisterExtension static RedriveExtension redrive = RedriveExtension.postgres(PgData.source());

  @Override
  DataSource appDataSource(TestRedrive kit) {
    return PgData.source();
  }
}
