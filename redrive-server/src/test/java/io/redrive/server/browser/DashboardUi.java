package io.redrive.server.browser;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard as an operator drives it in a real browser, in the words of its pages: sign in and
 * out through the form, open a page, read the overview's queue rows and a message's timeline, click
 * a button and wait for the page it leads to, post a form the way a page script would. Screenshots
 * are named {@code <store>-<page>}. Every wait is bounded ({@link #WAIT}). Not thread-safe.
 *
 * <p>Page hooks it relies on (kept in step with {@code src/main/jte}): {@code #login-form}, {@code
 * #key}, {@code #sign-in}, {@code #login-error}, {@code #user}, {@code #role}, {@code #logout},
 * {@code table#queues tr[data-queue]} with cells {@code td.ready/.scheduled/.leased/.lease-expired
 * /.dead/.state}, {@code #timeline li.entry[data-outcome]} with {@code .verdict}, {@code .attempt},
 * {@code .worker}, {@code .failure-message}, {@code .stack-trace}, and {@code input[name=_csrf]}.
 */
public final class DashboardUi {
  /** Bound of every wait for a page or an element. */
  public static final Duration WAIT = Duration.ofSeconds(15);

  private final Browser browser;
  private final String base;
  private final String store;

  /**
   * @param browser the browser to drive
   * @param base the server's base url, e.g. {@code http://127.0.0.1:41234}
   * @param store the store's label, the first part of every screenshot's name
   */
  public DashboardUi(Browser browser, String base, String store) {
    this.browser = browser;
    this.base = base;
    this.store = store;
  }

  /** The WebDriver. */
  public WebDriver driver() {
    return browser.driver();
  }

  // ---- navigation ----

  /** Loads {@code path} (e.g. {@code /ui/queues/q}) and waits until it has loaded. */
  public DashboardUi open(String path) {
    driver().get(base + path);
    awaitLoaded();
    return this;
  }

  /**
   * Makes the viewport a phone's: {@code width} × {@code height} CSS pixels, touch, the page's
   * viewport tag honoured (Chromium's device emulation). Until {@link #desktop()}; the next page
   * loaded is laid out at that width.
   */
  public DashboardUi phone(int width, int height) {
    return viewport(width, height, true);
  }

  /**
   * Makes the viewport {@code width} × {@code height} CSS pixels, a phone's ({@code mobile}) or a
   * desktop's, until {@link #desktop()}; the next page loaded is laid out at that size.
   */
  public DashboardUi viewport(int width, int height, boolean mobile) {
    browser
        .driver()
        .executeCdpCommand(
            "Emulation.setDeviceMetricsOverride",
            Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", mobile));
    return this;
  }

  /** Ends {@link #phone}: the browser's own window size again. */
  public DashboardUi desktop() {
    browser.driver().executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
    return this;
  }

  /** The current page's path and query, e.g. {@code /ui/login?next=%2Fui}. */
  public String path() {
    URI uri = URI.create(driver().getCurrentUrl());
    return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
  }

  /** The page's {@code <h1>}. */
  public String heading() {
    return text("h1");
  }

  /**
   * Ends the browser's session without the sign-out button: deletes the dashboard's cookies (the
   * browser is shared by every test of a class, and by both stores' servers on the same host).
   */
  public DashboardUi forgetSession() {
    open("/ui/login");
    driver().manage().deleteAllCookies();
    return this;
  }

  /** Signs in through the login form with {@code key}; returns on the page the form leads to. */
  public DashboardUi signIn(String key) {
    if (!path().startsWith("/ui/login")) {
      open("/ui/login");
    }
    WebElement field = find("#key");
    field.clear();
    field.sendKeys(key);
    clickAndWait("#sign-in");
    // Pages open with the live refresh paused, so that a test reading a table is never racing a
    // refresh that replaces it; LiveRefreshBrowserTest turns it on.
    liveRefresh(false);
    return this;
  }

  /**
   * Turns the live refresh on or off for the pages opened next, as the live bar's Pause / Resume
   * button does (it is remembered in the browser's localStorage).
   */
  public DashboardUi liveRefresh(boolean on) {
    script(
        on
            ? "window.localStorage.removeItem('redrive.live.paused')"
            : "window.localStorage.setItem('redrive.live.paused', '1')");
    return this;
  }

  /** Clicks the sign-out button; returns on the login page. */
  public DashboardUi signOut() {
    clickAndWait("#logout");
    return this;
  }

  /**
   * Clicks the element {@code css} selects — a link or a form's button — and waits until the page
   * it leads to has loaded.
   */
  public DashboardUi clickAndWait(String css) {
    WebElement html = driver().findElement(By.tagName("html"));
    find(css).click();
    new WebDriverWait(driver(), WAIT).until(d -> replaced(html));
    awaitLoaded();
    return this;
  }

  /**
   * Posts {@code fields} to {@code path} as a form the current page submits (built by a script the
   * driver runs, as a page's own script would), and waits for the answer's page.
   */
  public DashboardUi submitForm(String path, Map<String, String> fields) {
    WebElement html = driver().findElement(By.tagName("html"));
    js().executeScript(
            "var f = document.createElement('form'), fields = arguments[1];"
                + "f.method = 'post'; f.action = arguments[0];"
                + "Object.keys(fields).forEach(function (k) {"
                + "  var i = document.createElement('input');"
                + "  i.type = 'hidden'; i.name = k; i.value = fields[k];"
                + "  f.appendChild(i);"
                + "});"
                + "document.body.appendChild(f); f.submit();",
            path,
            fields);
    new WebDriverWait(driver(), WAIT).until(d -> replaced(html));
    awaitLoaded();
    return this;
  }

  /**
   * Posts {@code fields} form-encoded to {@code path} with {@code fetch} from the current page
   * (same origin, the session's cookie, redirects not followed); returns the HTTP status (0 for a
   * redirect, which fetch does not expose).
   */
  public int fetchPost(String path, Map<String, String> fields) {
    Object status =
        js().executeAsyncScript(
                "var done = arguments[arguments.length - 1];"
                    + "fetch(arguments[0], {method: 'POST', body: new URLSearchParams(arguments[1]),"
                    + "  credentials: 'same-origin', redirect: 'manual'})"
                    + "  .then(function (r) { done(r.status); },"
                    + "        function (e) { done('fetch failed: ' + e); });",
                path,
                fields);
    if (!(status instanceof Number n)) {
      throw new AssertionError("POST " + path + " from the page: " + status);
    }
    return n.intValue();
  }

  /** Runs {@code script} in the page and returns its result (e.g. {@code return window.x}). */
  public Object script(String script, Object... args) {
    return js().executeScript(script, args);
  }

  // ---- reading pages ----

  /** The one element {@code css} selects; fails if there is none. */
  public WebElement find(String css) {
    return driver().findElement(By.cssSelector(css));
  }

  /** Every element {@code css} selects, in page order. */
  public List<WebElement> all(String css) {
    return driver().findElements(By.cssSelector(css));
  }

  /** True when {@code css} selects something. */
  public boolean has(String css) {
    return !all(css).isEmpty();
  }

  /** The visible text of the element {@code css} selects. */
  public String text(String css) {
    return find(css).getText();
  }

  /** Waits until the element {@code css} selects shows {@code expected} (e.g. a job's progress). */
  public DashboardUi awaitText(String css, String expected) {
    new WebDriverWait(driver(), WAIT)
        .until(ExpectedConditions.textToBe(By.cssSelector(css), expected));
    return this;
  }

  /** Waits until {@code css} selects something (e.g. a finished job's page after its refreshes). */
  public DashboardUi awaitPresent(String css) {
    new WebDriverWait(driver(), WAIT)
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(css)));
    return this;
  }

  /** The session's CSRF token, from the first form of the page. */
  public String csrfToken() {
    return find("input[name=_csrf]").getDomProperty("value");
  }

  /**
   * The rows {@code rowCss} selects (e.g. {@code table#queues tr[data-queue]}), each as its cells'
   * text by the cell's last CSS class ({@code <td class="num ready">} is {@code ready}; cells
   * without a class are left out) plus the row's {@code data-*} attributes as {@code data-<name>}.
   * For tables this class has no reader for yet.
   */
  public List<Map<String, String>> rows(String rowCss) {
    return all(rowCss).stream()
        .map(
            tr -> {
              Map<String, String> cells = new java.util.LinkedHashMap<>();
              @SuppressWarnings("unchecked")
              Map<String, Object> data =
                  (Map<String, Object>)
                      js().executeScript(
                              "var d = arguments[0].dataset, o = {};"
                                  + " for (var k in d) { o['data-' + k] = d[k]; } return o;",
                              tr);
              data.forEach((k, v) -> cells.put(k, String.valueOf(v)));
              for (WebElement td : tr.findElements(By.cssSelector("td"))) {
                String cls = td.getDomAttribute("class");
                if (cls != null && !cls.isBlank()) {
                  cells.putIfAbsent(lastClass(cls), td.getText());
                }
              }
              return Map.copyOf(cells);
            })
        .toList();
  }

  /** One queue's row of the overview ({@code table#queues}), if listed. */
  public Optional<QueueRow> overviewRow(String queue) {
    for (WebElement tr : all("table#queues tr[data-queue]")) {
      if (queue.equals(tr.getDomAttribute("data-queue"))) {
        return Optional.of(
            new QueueRow(
                tr.findElement(By.cssSelector("a.queue-link")).getText(),
                count(tr, "ready"),
                count(tr, "scheduled"),
                count(tr, "leased"),
                count(tr, "lease-expired"),
                count(tr, "dead"),
                tr.findElement(By.cssSelector("td.state")).getText()));
      }
    }
    return Optional.empty();
  }

  /** The message page's timeline ({@code #timeline li.entry}), oldest first. */
  public List<TimelineEntry> timeline() {
    return all("#timeline li.entry").stream()
        .map(
            li ->
                new TimelineEntry(
                    li.getDomAttribute("data-outcome"),
                    li.findElement(By.cssSelector(".verdict")).getText(),
                    optionalText(li, ".attempt"),
                    optionalText(li, ".worker"),
                    optionalText(li, ".failure-message")))
        .toList();
  }

  /** Saves a screenshot as {@code target/screenshots/<store>-<page>.png}. */
  public void screenshot(String page) {
    browser.screenshot(store + "-" + page);
  }

  private static String lastClass(String classes) {
    String[] names = classes.trim().split("\\s+");
    return names[names.length - 1];
  }

  private static long count(WebElement tr, String cell) {
    return Long.parseLong(tr.findElement(By.cssSelector("td." + cell)).getText().replace(",", ""));
  }

  private static String optionalText(WebElement in, String css) {
    List<WebElement> found = in.findElements(By.cssSelector(css));
    return found.isEmpty() ? null : found.get(0).getText();
  }

  private void awaitLoaded() {
    new WebDriverWait(driver(), WAIT)
        .until(d -> "complete".equals(js().executeScript("return document.readyState")));
  }

  private JavascriptExecutor js() {
    return (JavascriptExecutor) driver();
  }

  /**
   * One row of the overview's queue table.
   *
   * @param name the queue's name as its link shows it
   * @param ready messages ready
   * @param scheduled messages scheduled for later
   * @param leased messages leased
   * @param leaseExpired leased messages whose lease ran out
   * @param dead dead messages
   * @param state {@code running} or {@code paused}
   */
  public record QueueRow(
      String name,
      long ready,
      long scheduled,
      long leased,
      long leaseExpired,
      long dead,
      String state) {}

  /**
   * One delivery or action on a message's timeline.
   *
   * @param outcome the entry's {@code data-outcome}, e.g. {@code LEASE_EXPIRED}
   * @param verdict what happened, in words
   * @param attempt {@code attempt N}, or null for an operator's action
   * @param worker {@code on <worker>}, or null
   * @param failureMessage the failure's message, or null
   */
  public record TimelineEntry(
      String outcome, String verdict, String attempt, String worker, String failureMessage) {}

  /**
   * True once {@code element}'s page has been replaced. Chromium reports an element of a page being
   * replaced either as stale or, while the new document is being attached, as a node that "does not
   * belong to the document": both mean the old page is gone.
   */
  private static boolean replaced(WebElement element) {
    try {
      element.isEnabled();
      return false;
    } catch (StaleElementReferenceException e) {
      return true;
    } catch (WebDriverException e) {
      if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
        return true;
      }
      throw e;
    }
  }
}
