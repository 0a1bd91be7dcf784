package io.redrive.spring;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The application contexts the starter's tests run in. */
final class Runners {
  private Runners() {}

  /**
   * An application with a DataSource on {@code jdbcUrl}, Spring's JDBC transaction manager and
   * {@code @Transactional} support, and the starter.
   */
  static ApplicationContextRunner withTransactions(String jdbcUrl) {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                BootClasses.dataSource(),
                BootClasses.dataSourceTransactionManager(),
                BootClasses.transaction(),
                RedriveAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + jdbcUrl);
  }
}
