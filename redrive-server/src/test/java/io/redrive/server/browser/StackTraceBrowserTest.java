package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.WebElement;

/**
 * A stack trace on a message's timeline, in Chromium on each store, at a desktop's and a phone's
 * width: no word of it (a frame, a class name, a long token) is cut across two lines — lines break
 * only where the trace has a line break or a space, and a line too long for the box scrolls inside
 * it.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StackTraceBrowserTest extends BrowserTestBase {
  private static final String STACK =
      "java.lang.IllegalStateException: card declined for order 4037 by"
          + " gateway.example.com/v2/charges/ch_3NqFz2LkdIqHf81x0aB9cDeFgHiJkLmNoPqRsTuV\n"
          + "\tat shop.payments.gateway.internal.ChargeClient.submitChargeWithIdempotencyKey"
          + "(ChargeClient.java:212)\n"
          + "\tat shop.payments.Pay.charge(Pay.java:88)\n"
          + "Caused by: java.net.SocketTimeoutException: Read timed out\n"
          + "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)\n";

  /**
   * The words of the element's text that the browser laid out over more than one line: for each run
   * of non-space characters, the distinct tops of the boxes its characters occupy.
   */
  private static final String SPLIT_WORDS =
      "var el = arguments[0], split = [];"
          + "el.childNodes.forEach(function (node) {"
          + "  if (node.nodeType !== Node.TEXT_NODE) { return; }"
          + "  var re = /\\S+/g, m;"
          + "  while ((m = re.exec(node.data))) {"
          + "    var range = document.createRange(), tops = {};"
          + "    range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);"
          + "    Array.prototype.forEach.call(range.getClientRects(), function (r) {"
          + "      if (r.width > 0) { tops[Math.round(r.top)] = true; }"
          + "    });"
          + "    if (Object.keys(tops).length > 1) { split.push(m[0]); }"
          + "  }"
          + "});"
          + "return split;";

  @AfterEach
  void desktopAgain() {
    ui.desktop();
  }

  @Test
  void stackTrace_wrapsOnlyBetweenWords_atDesktopAndPhoneWidth() {
    String q = queue("traces", QueuePolicy.defaults().withMaxAttempts(1));
    String id = redrive.enqueue(NewMessage.builder(q, "charge").payload("{}").build()).id();
    LeasedMessage m = redrive.lease(LeaseRequest.of(q, "w-1", 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "card declined")
            .withStackTrace(STACK));

    ui.signIn(ADMIN_KEY);
    for (String width : List.of("desktop", "phone")) {
      if (width.equals("phone")) {
        ui.phone(PhoneWidthBrowserTest.PHONE_WIDTH, 844);
      }
      ui.open("/ui/messages/" + id);
      ui.find("#timeline details.stack summary").click();
      WebElement trace = ui.find("#timeline .stack-trace");
      ui.screenshot("stack-trace-" + width);
      assertThat(trace.getDomProperty("textContent")).isEqualTo(STACK);
      assertThat(ui.script(SPLIT_WORDS, trace))
          .as("%s: words cut across lines", width)
          .isEqualTo(List.of());
      assertThat(ui.script("return arguments[0].scrollWidth > arguments[0].clientWidth", trace))
          .as("%s: the longest line scrolls inside the box", width)
          .isEqualTo(true);
      assertThat(
              ui.script("return document.documentElement.scrollWidth <= window.innerWidth", trace))
          .as("%s: the page is no wider than the window", width)
          .isEqualTo(true);
    }
    assertThat(browser.console()).as("console").isEmpty();
  }
}
