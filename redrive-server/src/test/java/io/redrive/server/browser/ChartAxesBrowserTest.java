package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The throughput charts' time axis in Chromium on each store, at widths from a phone's to a wide
 * desktop's: no two of its labels overlap or touch. uPlot draws its labels on a canvas, not as
 * elements, so the test reads what was drawn: a script installed before the page's own (Chromium's
 * DevTools protocol, untouched by the page's Content-Security-Policy) records each label uPlot
 * writes with {@code fillText} — text, position, alignment and measured width — and the boxes of
 * the x axis's labels (centred, hanging below the plot) are compared row by row.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ChartAxesBrowserTest extends BrowserTestBase {
  /** Space that must stay between two labels of a row, in pixels. */
  private static final double MIN_GAP = 4;

  /** Records, per chart canvas, the texts of its last drawing (a full clear starts a new one). */
  private static final String RECORD_LABELS =
      "(function () {"
          + "  var proto = CanvasRenderingContext2D.prototype;"
          + "  var fillText = proto.fillText, clearRect = proto.clearRect;"
          + "  window.__chartLabels = {};"
          + "  function chartOf(ctx) {"
          + "    var chart = ctx.canvas.closest && ctx.canvas.closest('.chart');"
          + "    return chart ? chart.id : null;"
          + "  }"
          + "  proto.clearRect = function (x, y, w, h) {"
          + "    var id = chartOf(this);"
          + "    if (id && w >= this.canvas.width && h >= this.canvas.height) {"
          + "      window.__chartLabels[id] = [];"
          + "    }"
          + "    return clearRect.apply(this, arguments);"
          + "  };"
          + "  proto.fillText = function (text, x, y) {"
          + "    var id = chartOf(this);"
          + "    if (id) {"
          + "      (window.__chartLabels[id] = window.__chartLabels[id] || []).push({"
          + "        text: String(text), x: x, y: y, align: this.textAlign,"
          + "        baseline: this.textBaseline, width: this.measureText(String(text)).width});"
          + "    }"
          + "    return fillText.apply(this, arguments);"
          + "  };"
          + "})();";

  private String recorder;

  @BeforeEach
  void recordChartLabels() {
    @SuppressWarnings("unchecked")
    Map<String, Object> added =
        (Map<String, Object>)
            browser
                .driver()
                .executeCdpCommand(
                    "Page.addScriptToEvaluateOnNewDocument", Map.of("source", RECORD_LABELS));
    recorder = String.valueOf(added.get("identifier"));
  }

  @AfterEach
  void stopRecording() {
    browser
        .driver()
        .executeCdpCommand(
            "Page.removeScriptToEvaluateOnNewDocument", Map.of("identifier", recorder));
    browser.driver().executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", ""));
    ui.desktop();
  }

  @Test
  void timeAxisLabels_neverOverlap_fromPhoneToDesktopWidth() {
    String q = queue("charted", QueuePolicy.defaults());
    for (int i = 0; i < 5; i++) {
      redrive.enqueue(NewMessage.builder(q, "job").payload("{}").build());
    }
    ui.signIn(ADMIN_KEY);
    browser
        .driver()
        .executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", lateMorning()));
    List<Integer> widths = new ArrayList<>(List.of(PhoneWidthBrowserTest.PHONE_WIDTH));
    for (int w = 360; w <= 1040; w += 40) {
      widths.add(w);
    }
    widths.addAll(List.of(1280, 1440, 1920));
    for (int width : widths) {
      ui.viewport(width, 900, width < 600);
      for (String page : List.of("/ui", "/ui/queues/" + q)) {
        assertReadableAxes(page, width);
        if (width == 390 || width == 1280) {
          ui.screenshot("chart-axes-" + width + (page.equals("/ui") ? "-overview" : "-queue"));
        }
      }
    }
    assertThat(browser.console()).as("console").isEmpty();
  }

  /** The 24-hour range: 1 440 minutes on the same axis, labels still apart at every width. */
  @Test
  void timeAxisLabels_ofTheLast24Hours_neverOverlap() {
    String q = queue("charted-day", QueuePolicy.defaults());
    redrive.enqueue(NewMessage.builder(q, "job").payload("{}").build());
    ui.signIn(ADMIN_KEY);
    browser
        .driver()
        .executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", lateMorning()));
    for (int width : List.of(PhoneWidthBrowserTest.PHONE_WIDTH, 600, 800, 1040, 1280, 1920)) {
      ui.viewport(width, 900, width < 600);
      for (String page : List.of("/ui?range=24h", "/ui/queues/" + q + "?range=24h")) {
        assertReadableAxes(page, width);
        assertThat(ui.text("section.throughput h2")).isEqualTo("Throughput, last 24 hours");
        if (width == 390 || width == 1280) {
          ui.screenshot(
              "chart-axes-24h-" + width + (page.startsWith("/ui?") ? "-overview" : "-queue"));
        }
      }
    }
    assertThat(browser.console()).as("console").isEmpty();
  }

  /** Opens {@code page} and checks every chart's x labels: at least two, none touching. */
  private void assertReadableAxes(String page, int width) {
    ui.open(page);
    int shown = ui.all(".chart").size();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> xAxisLabels().values().stream().filter(l -> !l.isEmpty()).count() == shown);
    Map<String, List<Label>> charts = xAxisLabels();
    charts.forEach(
        (chart, labels) -> {
          assertThat(labels)
              .as("%s at %d px: x labels of %s", page, width, chart)
              .hasSizeGreaterThanOrEqualTo(2);
          assertNoOverlap(page + " at " + width + " px, " + chart, labels);
        });
  }

  /**
   * A time zone where the chart's hour is late morning, so that its times have their widest
   * twelve-hour labels ({@code 10:50am}, {@code 11:00am}): whole-hour offsets are enough.
   */
  private static String lateMorning() {
    int hour = java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).getHour();
    int offset = Math.floorMod(11 - hour + 12, 24) - 12; // -12 .. 11
    // Etc/GMT zone names have the sign the other way round: Etc/GMT-6 is six hours ahead.
    return offset == 0 ? "Etc/GMT" : "Etc/GMT" + (offset > 0 ? "-" : "+") + Math.abs(offset);
  }

  /** Each chart's x axis labels: centred texts hanging from their line (the y axis's are not). */
  private Map<String, List<Label>> xAxisLabels() {
    @SuppressWarnings("unchecked")
    Map<String, List<Map<String, Object>>> drawn =
        (Map<String, List<Map<String, Object>>>) ui.script("return window.__chartLabels || {}");
    Map<String, List<Label>> charts = new TreeMap<>();
    drawn.forEach(
        (chart, texts) -> {
          List<Label> labels = new ArrayList<>();
          for (Map<String, Object> t : texts) {
            if ("center".equals(t.get("align")) && "top".equals(t.get("baseline"))) {
              labels.add(
                  new Label(
                      (String) t.get("text"),
                      number(t.get("x")),
                      number(t.get("y")),
                      number(t.get("width"))));
            }
          }
          charts.put(chart, labels);
        });
    return charts;
  }

  /** Labels on one row (the same y) must keep {@link #MIN_GAP} between their boxes. */
  private static void assertNoOverlap(String where, List<Label> labels) {
    Map<Long, List<Label>> rows = new TreeMap<>();
    for (Label l : labels) {
      rows.computeIfAbsent(Math.round(l.y()), y -> new ArrayList<>()).add(l);
    }
    rows.values()
        .forEach(
            row -> {
              row.sort(Comparator.comparingDouble(Label::x));
              for (int i = 1; i < row.size(); i++) {
                Label a = row.get(i - 1);
                Label b = row.get(i);
                assertThat(b.left() - a.right())
                    .as("%s: space between \"%s\" and \"%s\"", where, a.text(), b.text())
                    .isGreaterThanOrEqualTo(MIN_GAP);
              }
            });
  }

  private static double number(Object value) {
    return ((Number) value).doubleValue();
  }

  /** One label as drawn: its text, centre x, top y and width, in canvas pixels. */
  private record Label(String text, double x, double y, double width) {
    double left() {
      return x - width / 2;
    }

    double right() {
      return x + width / 2;
    }
  }
}
