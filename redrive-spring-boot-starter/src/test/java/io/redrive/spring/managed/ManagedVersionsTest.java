package io.redrive.spring.managed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringBootVersion;

/**
 * The starter's tests in the modules spring-boot-managed and spring-boot-4 prove something only if
 * they ran on Boot's versions: each library Redrive uses must have come from the jar of the version
 * that module's Boot parent manages (passed in as system properties), not from Redrive's own pin.
 * Not run in the starter's own module, which has Redrive's pins.
 */
class ManagedVersionsTest {

  static Stream<Arguments> libraries() {
    return Stream.of(
        Arguments.of(SpringBootVersion.class, "spring-boot", "managed.spring-boot"),
        Arguments.of(Flyway.class, "flyway-core", "managed.flyway"),
        Arguments.of(HikariDataSource.class, "HikariCP", "managed.hikaricp"),
        Arguments.of(MeterRegistry.class, "micrometer-core", "managed.micrometer"),
        Arguments.of(ObjectMapper.class, "jackson-databind", "managed.jackson"),
        Arguments.of(org.postgresql.Driver.class, "postgresql", "managed.postgresql"),
        Arguments.of(org.sqlite.JDBC.class, "sqlite-jdbc", "managed.sqlite"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("libraries")
  void runsOnTheVersionBootManages(Class<?> probe, String artifact, String property)
      throws URISyntaxException {
    String managed = System.getProperty(property);
    assertThat(managed).as("%s set by the pom", property).isNotBlank();
    Path jar = Path.of(probe.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(jar.getFileName().toString()).isEqualTo(artifact + "-" + managed + ".jar");
  }
}
