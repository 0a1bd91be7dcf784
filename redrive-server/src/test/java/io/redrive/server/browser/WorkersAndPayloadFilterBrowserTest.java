package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.lease.LeaseRequest;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The workers page and the queue page's payload-field filter in Chromium on each store: the nav
 * leads to the workers, a worker's queue link opens its queue; typing {@code order.id = 42} into
 * the queue page's form lists only the matching messages (a text payload neither matches nor
 * fails); both pages fit a phone's width without sideways scrolling of the page.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WorkersAndPayloadFilterBrowserTest extends BrowserTestBase {
  private static final String LONG_WORKER =
      "worker-on-a-host-with-a-rather-long-name-" + "x".repeat(60);

  @AfterEach
  void desktopAgain() {
    ui.desktop();
  }

  @Test
  void theWorkersPage_listsWhoHoldsLeases_andLinksTheirQueues() {
    ui.signIn(VIEWER_KEY);
    ui.open("/ui/workers");
    // Other tests' leases may be held on this server: this one's worker is what is checked.
    String q = queue("workers-page-queue-with-a-long-name", QueuePolicy.defaults());
    for (int i = 0; i < 3; i++) {
      redrive.enqueue(NewMessage.builder(q, "resize-image").payload("{}").build());
    }
    redrive.lease(LeaseRequest.of(q, LONG_WORKER, 3));

    ui.open("/ui");
    ui.clickAndWait("#nav-workers");
    assertThat(ui.path()).isEqualTo("/ui/workers");
    String row = "#workers tr[data-worker='" + LONG_WORKER + "']";
    assertThat(ui.text(row + " td.held")).isEqualTo("3");
    assertThat(ui.text(row + " td.types")).contains("resize-image (3)");
    ui.screenshot("workers");
    fitsPhone("workers", "/ui/workers");
    ui.desktop();
    ui.clickAndWait(row + " td.queues a");
    assertThat(ui.path()).isEqualTo("/ui/queues/" + q);
    assertThat(browser.console()).as("console").isEmpty();
  }

  @Test
  void thePayloadFilter_findsMessagesByANestedField() {
    String q = queue("by-field", QueuePolicy.defaults());
    List<String> matches = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      matches.add(
          redrive
              .enqueue(
                  NewMessage.builder(q, "ship")
                      .payload("{\"order\":{\"id\":" + (i % 2 == 0 ? "42" : "\"42\"") + "}}")
                      .build())
              .id());
      redrive.enqueue(
          NewMessage.builder(q, "ship").payload("{\"order\":{\"id\":" + (100 + i) + "}}").build());
    }
    redrive.enqueue(NewMessage.builder(q, "ship").payload("order.id = 42, plain text").build());

    ui.signIn(VIEWER_KEY);
    ui.open("/ui/queues/" + q);
    ui.find("#filter-field").sendKeys("order.id");
    ui.find("#filter-value").sendKeys("42");
    ui.clickAndWait("#filter-submit");
    assertThat(ui.path()).startsWith("/ui/queues/" + q + "/messages");
    List<String> shown =
        ui.all("table#messages tr[data-id]").stream().map(r -> r.getAttribute("data-id")).toList();
    assertThat(shown).containsExactlyElementsOf(matches);
    assertThat(ui.text("#field-shown")).isEqualTo("order.id = 42");
    assertThat(ui.find("#filter-field").getAttribute("value")).isEqualTo("order.id");
    ui.screenshot("payload-filter");
    fitsPhone("payload-filter", null);
    fitsPhone("queue-with-filter", "/ui/queues/" + q);

    ui.desktop();
    ui.open("/ui/queues/" + q + "/messages?field=order..id&value=42");
    assertThat(ui.heading()).isNotBlank();
    assertThat(ui.find("main").getText()).contains("field: ");
    assertThat(browser.console())
        .as("console: the one 400 of the bad path")
        .hasSize(1)
        .allSatisfy(line -> assertThat(line).contains("status of 400"));
  }

  /** Opens {@code path} (or stays) at a phone's width; the page must not be wider than it. */
  private void fitsPhone(String page, String path) {
    ui.phone(PhoneWidthBrowserTest.PHONE_WIDTH, 844);
    if (path != null) {
      ui.open(path);
    }
    browser.screenshot("phone-" + page + "-" + kind.label());
    Object wide =
        ui.script(
            "return document.documentElement.scrollWidth <= window.innerWidth"
                + " ? null : document.documentElement.scrollWidth");
    assertThat(wide).as("%s: page width beyond the phone's", page).isNull();
  }
}
