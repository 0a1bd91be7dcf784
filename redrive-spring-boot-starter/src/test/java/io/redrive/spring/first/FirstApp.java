package io.redrive.spring.first;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;

/**
 * The whole application of docs/spring-boot.md, "A first handler". The exclusions stand only
 * because this module's test class path carries the JDBC and JPA starters (for other tests), which
 * a new application without a database would not have.
 */
@SpringBootApplication(
    exclude = {DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class})
public class FirstApp {}
