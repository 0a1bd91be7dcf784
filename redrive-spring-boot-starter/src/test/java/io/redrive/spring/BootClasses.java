package io.redrive.spring;

/**
 * The Spring Boot auto-configurations the tests start, wherever the Boot line on the class path
 * keeps them: Boot 4 moved each into a module of its own (the same tests run on 3.5 and on 4).
 */
final class BootClasses {
  private BootClasses() {}

  static Class<?> dataSource() {
    return either(
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");
  }

  static Class<?> dataSourceTransactionManager() {
    return either(
        "org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration");
  }

  static Class<?> transaction() {
    return either(
        "org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration");
  }

  static Class<?> hibernateJpa() {
    return either(
        "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
        "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration");
  }

  private static Class<?> either(String boot3, String boot4) {
    ClassLoader loader = BootClasses.class.getClassLoader();
    try {
      return Class.forName(boot3, false, loader);
    } catch (ClassNotFoundException e3) {
      try {
        return Class.forName(boot4, false, loader);
      } catch (ClassNotFoundException e4) {
        throw new IllegalStateException(
            "neither " + boot3 + " nor " + boot4 + " on the class path");
      }
    }
  }
}
