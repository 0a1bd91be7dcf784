package io.redrive.spring.first;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The whole application of docs/spring-boot.md, "A first handler". The exclusions stand only
 * because this module's test class path carries the JDBC and JPA starters (for other tests), which
 * a new application without a database would not have.
 */
@SpringBootApplication(
    // By name, for Spring Boot 3 and 4 (which moved them); a name not on the class path is ignored.
    excludeName = {
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
      "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration"
    })
public class FirstApp {}
