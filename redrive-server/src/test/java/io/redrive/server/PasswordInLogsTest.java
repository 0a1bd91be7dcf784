package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.redrive.server.config.StoreSettings;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A password in the PostgreSQL url never reaches a log line, at any level, of the server, the
 * store, the pool or the migrations: not while starting and serving (the url's password is accepted
 * by the test server's trust authentication), nor when the connection fails; nor the message or
 * stack trace of the failure.
 */
class PasswordInLogsTest {
  private static final String SECRET = "s3cretPassw0rd";
  private static final Pattern URL =
      Pattern.compile("jdbc:postgresql://([^:/]+):(\\d+)/([^?]*)(.*)");
  private static final List<String> LOGGERS =
      List.of("com.zaxxer.hikari", "org.flywaydb", "org.postgresql", "io.redrive", "io.javalin");

  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Logger root;
  private String schema;

  @BeforeEach
  void capture() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    for (String name : LOGGERS) {
      context.getLogger(name).setLevel(Level.ALL);
    }
    appender.start();
    root.addAppender(appender);
    schema = TestPostgres.createSchema("pwlog");
  }

  @AfterEach
  void release() {
    root.detachAppender(appender);
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    for (String name : LOGGERS) {
      context.getLogger(name).setLevel(null);
    }
    TestPostgres.dropSchema(schema);
  }

  @Test
  void serverOnAUrlWithAPassword_startsServesAndStops_withoutLoggingIt() {
    Matcher m = URL.matcher(TestPostgres.adminUrl());
    assertThat(m.matches()).as(TestPostgres.adminUrl()).isTrue();
    String at = m.group(1) + ":" + m.group(2) + "/" + m.group(3);
    for (String url :
        List.of(
            "jdbc:postgresql://" + at + "?user=postgres&password=" + SECRET,
            "jdbc:postgresql://postgres:" + SECRET + "@" + at)) {
      Store store = StoreSettings.postgres(url, null, null, schema).open();
      RedriveServer server =
          RedriveServer.start(TestServers.config(), TestServers.ALLOW_ALL, store);
      try {
        HttpApiClient api = new HttpApiClient(server.baseUrl());
        assertThat(api.post("/v1/queues", "{\"name\":\"q\"}").status()).isIn(201, 409);
        assertThat(api.get("/ready").status()).isEqualTo(200);
      } finally {
        server.stop();
        store.close();
      }
    }
    assertNoSecretLogged();
  }

  @Test
  void failingConnections_neitherLogNorReportThePassword() {
    for (String url :
        List.of(
            "jdbc:postgresql://127.0.0.1:1/db?user=me&password=" + SECRET,
            "jdbc:postgresql://me:" + SECRET + "@127.0.0.1:1/db",
            "jdbc:postgresql://me:" + SECRET + "@no-such-host.invalid/db",
            "jdbc:postgresql://no-such-host.invalid/db?password=" + SECRET + "&user=me")) {
      assertThatThrownBy(() -> StoreSettings.postgres(url, null, null, schema).open())
          .satisfies(e -> assertThat(stackTrace(e)).as(url).doesNotContain(SECRET));
    }
    assertNoSecretLogged();
  }

  private void assertNoSecretLogged() {
    assertThat(appender.list).as("captured log events").isNotEmpty();
    for (ILoggingEvent e : appender.list) {
      assertThat(render(e)).as(e.getLoggerName()).doesNotContain(SECRET);
    }
  }

  /** The event as an appender prints it: message, then the whole throwable chain. */
  private static String render(ILoggingEvent e) {
    StringBuilder b = new StringBuilder(e.getFormattedMessage());
    IThrowableProxy t = e.getThrowableProxy();
    if (t != null) {
      b.append('\n').append(ThrowableProxyUtil.asString(t));
    }
    return b.toString();
  }

  private static String stackTrace(Throwable e) {
    StringWriter out = new StringWriter();
    e.printStackTrace(new PrintWriter(out));
    return out.toString();
  }
}
