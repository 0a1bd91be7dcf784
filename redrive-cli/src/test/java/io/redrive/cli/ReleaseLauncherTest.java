package io.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release's launcher, {@code redrive-dist/src/bin/redrive}, run by {@code sh} in a release
 * layout made here, with stand-in {@code java} commands that report a version and echo the
 * arguments they were given: which Java it picks, the Java 17 check and what it passes on. The
 * archives themselves are built and smoke-tested by {@code .ci/run}; this checks the choices the
 * smoke test cannot reach (no Java, an old one) without building them. Runs from redrive-cli, whose
 * directory's parent is the repository.
 */
class ReleaseLauncherTest {
  private static final Path DIST = Path.of("..", "redrive-dist");

  @TempDir Path dir;
  private Path home;
  private Path emptyPath;

  @BeforeEach
  void makeARelease() throws IOException {
    home = dir.resolve("redrive-1.0");
    Path bin = Files.createDirectories(home.resolve("bin"));
    Files.copy(DIST.resolve("src/bin/redrive"), bin.resolve("redrive"));
    executable(bin.resolve("redrive"));
    emptyPath = Files.createDirectories(dir.resolve("empty-path"));
  }

  @Test
  void launch_javaHome17_runsTheJarWithJavaOptsAndTheArguments() throws Exception {
    Path javaHome = fakeJava(dir.resolve("jdk17"), "17.0.15");

    Run r = launch(Map.of("JAVA_HOME", javaHome.toString(), "JAVA_OPTS", "-Xmx64m -Da=b"), "ping");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .isEqualTo(
            "ran " + javaHome.resolve("bin/java") + ": -Xmx64m -Da=b -jar " + jar() + " ping\n");
  }

  @Test
  void launch_javaOnPathOnly_runsIt() throws Exception {
    Path javaHome = fakeJava(dir.resolve("jdk21"), "21");

    Run r = launch(Map.of("PATH", javaHome.resolve("bin").toString()), "--version");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("ran " + javaHome.resolve("bin/java") + ": -jar " + jar());
  }

  @Test
  void launch_bundledRuntime_preferredToJavaHome() throws Exception {
    Path runtime = fakeJava(home.resolve("runtime"), "17.0.15");
    Path javaHome = fakeJava(dir.resolve("jdk17"), "17.0.15");

    Run r = launch(Map.of("JAVA_HOME", javaHome.toString()), "server");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("ran " + runtime.resolve("bin/java") + ": -jar " + jar());
  }

  @Test
  void launch_java11_refusesNamingTheVersionNeeded() throws Exception {
    Path javaHome = fakeJava(dir.resolve("jdk11"), "11.0.2");

    Run r = launch(Map.of("JAVA_HOME", javaHome.toString()), "server");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "redrive: needs Java 17 or newer, but "
                + javaHome.resolve("bin/java")
                + " is Java 11.0.2; set JAVA_HOME to a newer one\n");
  }

  @Test
  void launch_java8_readsTheOldVersionScheme() throws Exception {
    Path javaHome = fakeJava(dir.resolve("jdk8"), "1.8.0_392");

    Run r = launch(Map.of("JAVA_HOME", javaHome.toString()), "server");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("is Java 1.8.0_392; set JAVA_HOME to a newer one");
  }

  @Test
  void launch_noJavaAnywhere_saysWhereItLooked() throws Exception {
    Run r = launch(Map.of(), "server");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "redrive: needs Java 17 or newer: JAVA_HOME is not set and there is no java on PATH"
                + " (or use the release archive that brings its own runtime)\n");
  }

  @Test
  void launch_javaHomeWithoutJava_namesIt() throws Exception {
    Path notAJdk = Files.createDirectories(dir.resolve("not-a-jdk"));

    Run r = launch(Map.of("JAVA_HOME", notAJdk.toString()), "server");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("redrive: JAVA_HOME is " + notAJdk + " but ");
  }

  @Test
  void launch_throughASymbolicLink_findsItsRelease() throws Exception {
    Path javaHome = fakeJava(dir.resolve("jdk17"), "17.0.15");
    Path linkDir = Files.createDirectories(dir.resolve("usr-local-bin"));
    Path link = linkDir.resolve("redrive");
    Files.createSymbolicLink(link, linkDir.relativize(home.resolve("bin/redrive")));

    Run r =
        run(
            List.of("sh", link.toString(), "ping"),
            Map.of("JAVA_HOME", javaHome.toString(), "PATH", "/bin:/usr/bin"));

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("-jar " + jar() + " ping");
  }

  @Test
  void releaseArchives_keepTheLauncherExecutable() throws IOException {
    String contents = Files.readString(DIST.resolve("src/assembly/contents.xml"));

    assertThat(contents)
        .containsPattern(
            "<source>src/bin/redrive</source>\\s*<outputDirectory>bin</outputDirectory>\\s*"
                + "<fileMode>0755</fileMode>");
  }

  private String jar() throws IOException {
    return home.toRealPath().resolve("lib/redrive.jar").toString();
  }

  /** A JDK whose {@code bin/java} reports {@code version} and echoes what it was asked to run. */
  private static Path fakeJava(Path javaHome, String version) throws IOException {
    Path java = Files.createDirectories(javaHome.resolve("bin")).resolve("java");
    Files.writeString(
        java,
        "#!/bin/sh\n"
            + "if [ \"$1\" = -version ]; then\n"
            + "  echo 'openjdk version \""
            + version
            + "\" 2025-04-15' >&2\n"
            + "  echo 'OpenJDK Runtime Environment' >&2\n"
            + "  exit 0\n"
            + "fi\n"
            + "echo \"ran $0: $*\"\n");
    executable(java);
    return javaHome;
  }

  private static void executable(Path file) throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Runs the launcher with only {@code env} set: no JAVA_HOME, and PATH empty unless given. */
  private Run launch(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("sh", home.resolve("bin/redrive").toString()));
    command.addAll(List.of(args));
    Map<String, String> withPath = new HashMap<>(env);
    withPath.putIfAbsent("PATH", emptyPath.toString());
    return run(command, withPath);
  }

  private static Run run(List<String> command, Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
    return new Run(p.exitValue(), out, err);
  }

  private record Run(int exit, String out, String err) {}
}
