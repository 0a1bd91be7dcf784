package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.deadletter.ImportMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A group action that outlasts its request: the job page shows it running and updates itself in
 * place (htmx polling, allowed by the page's Content-Security-Policy) until it shows the result,
 * without a reload. The job is held mid-way by a row lock another connection takes on the group's
 * messages, so the page is certainly seen running; PostgreSQL only, as SQLite has no row locks (the
 * page's behaviour does not depend on the store).
 */
@ParameterizedClass
@EnumSource(value = BrowserStore.class, names = "POSTGRES")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JobProgressBrowserTest extends BrowserTestBase {

  @Test
  void runningJob_pageUpdatesItselfUntilDone() throws Exception {
    String q = queue("slow", QueuePolicy.defaults());
    List<ImportMessage> dead = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      dead.add(new ImportMessage("src-" + i, null, "rebuild", "{}", Map.of(), null, true));
    }
    redrive.importMessages(q, dead);
    String fingerprint = redrive.deadGroups(q, 10).groups().get(0).fingerprint();

    ui.open("/ui").signIn(ADMIN_KEY);
    ui.open("/ui/confirm?op=retry&queue=" + q + "&fingerprint=" + fingerprint);
    assertThat(ui.text("#dry-run-count")).isEqualTo("30");

    String schema = database.address().properties().get("schema");
    try (Connection lock = DriverManager.getConnection(TestPostgres.adminUrl())) {
      lock.setAutoCommit(false);
      try (PreparedStatement ps =
          lock.prepareStatement(
              "SELECT id FROM " + schema + ".redrive_messages WHERE queue = ? FOR UPDATE")) {
        ps.setString(1, q);
        ps.executeQuery().close();
      }
      ui.clickAndWait("#confirm"); // the server waits 2 s for the job, then shows its page
      assertThat(ui.find("#job").getDomAttribute("data-status")).isEqualTo("running");
      assertThat(ui.text("#job-status")).contains("0 of 30");
      ui.script("window.__sameDocument = true;");
      ui.screenshot("job-running");
      lock.commit();
    }
    ui.awaitPresent("#job[data-status='done']");
    ui.screenshot("job-done");
    assertThat(ui.text("#job-done")).isEqualTo("30");
    assertThat(ui.script("return window.__sameDocument === true;"))
        .as("updated in place by polling, not by a reload")
        .isEqualTo(true);
    assertThat(redrive.stats(q).ready()).isEqualTo(30);
    assertThat(browser.console()).isEmpty();
  }
}
