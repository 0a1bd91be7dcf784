package io.redrive.spring;

import io.redrive.CallerTransactions;
import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The Spring-managed transaction in progress on the store's {@link DataSource}, which enqueues
 * join: the one a {@code DataSourceTransactionManager} or a {@code JpaTransactionManager} (which
 * exposes its JDBC connection) bound to the calling thread. None outside a transaction, or in one
 * on another resource. Spring keeps the connection: Redrive never commits or closes it.
 */
final class SpringCallerTransactions implements CallerTransactions {
  private final DataSource dataSource;

  SpringCallerTransactions(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public Connection join() {
    if (!TransactionSynchronizationManager.isActualTransactionActive()
        || !(TransactionSynchronizationManager.getResource(dataSource)
            instanceof ConnectionHolder holder)
        || holder.getConnectionHandle() == null) {
      return null;
    }
    // Counts the use on the holder; leave() gives it back without closing the connection.
    return DataSourceUtils.getConnection(dataSource);
  }

  @Override
  public void leave(Connection connection) {
    DataSourceUtils.releaseConnection(connection, dataSource);
  }
}
