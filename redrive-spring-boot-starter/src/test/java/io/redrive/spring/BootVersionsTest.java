package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Spring Boot versions the build names in several poms agree: the starter's spring-boot.version
 * with the parent of spring-boot-managed and of the sample, spring-boot-4.version with the parent
 * of spring-boot-4, so that "tested with" in docs/spring-boot.md stays one pair of numbers.
 */
class BootVersionsTest {
  private static final Path ROOT = Path.of("..");

  @Test
  void everyPomNamesTheSameBootVersions() throws IOException {
    String root = Files.readString(ROOT.resolve("pom.xml"));
    String boot3 = property(root, "spring-boot.version");
    String boot4 = property(root, "spring-boot-4.version");
    assertThat(parentVersion("spring-boot-managed/pom.xml")).isEqualTo(boot3);
    assertThat(parentVersion("examples/spring-boot/pom.xml")).isEqualTo(boot3);
    assertThat(parentVersion("spring-boot-4/pom.xml")).isEqualTo(boot4);
    String docs = Files.readString(ROOT.resolve("docs/spring-boot.md"));
    assertThat(docs).contains("tested with " + boot3).contains("tested with " + boot4);
  }

  private static String property(String pom, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
    assertThat(m.find()).as("%s in the root pom", name).isTrue();
    return m.group(1);
  }

  private static String parentVersion(String pom) throws IOException {
    Matcher m =
        Pattern.compile(
                "<parent>\\s*<groupId>org.springframework.boot</groupId>\\s*"
                    + "<artifactId>spring-boot-starter-parent</artifactId>\\s*"
                    + "<version>([^<]+)</version>")
            .matcher(Files.readString(ROOT.resolve(pom)));
    assertThat(m.find()).as("Spring Boot's parent in %s", pom).isTrue();
    return m.group(1);
  }
}
