package io.redrive.server.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Starts the headless Chromium the browser tests drive: Debian's {@code chromium} and {@code
 * chromedriver} at fixed paths (system properties {@code redrive.chromium} and {@code
 * redrive.chromedriver} override them), so Selenium Manager never looks for, let alone downloads, a
 * browser or driver. On a fresh machine where they are missing and the tests run as root with
 * apt-get, they are installed once ({@code apt-get install chromium chromium-driver}, output in
 * {@code target/browser/apt-get.log}); otherwise starting fails with what to install. Never skips.
 * Thread-safe.
 */
public final class Browsers {
  /** The Chromium binary. */
  public static final Path CHROMIUM =
      Path.of(System.getProperty("redrive.chromium", "/usr/bin/chromium"));

  /** The ChromeDriver matching {@link #CHROMIUM}. */
  public static final Path CHROMEDRIVER =
      Path.of(System.getProperty("redrive.chromedriver", "/usr/bin/chromedriver"));

  /** Where screenshots, driver logs and the install log go: the module's {@code target}. */
  public static final Path TARGET = Path.of(System.getProperty("basedir", "."), "target");

  private static final Duration INSTALL_WAIT = Duration.ofMinutes(10);
  private static final Path APT_GET = Path.of("/usr/bin/apt-get");
  private static boolean installTried;

  static {
    // Belt and braces: should anything still reach Selenium Manager, it must not download.
    System.setProperty("SE_OFFLINE", "true");
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    java.util.logging.Logger.getLogger("org.openqa.selenium").setLevel(Level.SEVERE);
  }

  private Browsers() {}

  /**
   * A new headless Chromium with a fresh profile, console messages of every level kept for {@link
   * Browser#console()}. The caller closes it.
   *
   * @throws IllegalStateException when Chromium or ChromeDriver is missing and cannot be installed
   */
  public static Browser start() {
    ensureInstalled();
    Path profile;
    Path logs = TARGET.resolve("browser");
    try {
      profile = Files.createTempDirectory("redrive-chromium-");
      Files.createDirectories(logs);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        "--user-data-dir=" + profile.toAbsolutePath());
    LoggingPreferences logging = new LoggingPreferences();
    logging.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logging);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(60))
            .withLogFile(
                logs.resolve("chromedriver-" + ProcessHandle.current().pid() + ".log").toFile())
            .withAppendLog(true)
            .build();
    try {
      ChromeDriver driver = new ChromeDriver(service, options);
      driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
      driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(15));
      return new Browser(driver, service, profile);
    } catch (RuntimeException e) {
      service.stop();
      Browser.deleteTree(profile);
      throw new IllegalStateException(
          "headless Chromium did not start ("
              + CHROMIUM
              + " driven by "
              + CHROMEDRIVER
              + "; driver log in "
              + logs
              + ")",
          e);
    }
  }

  /** Installs Chromium and ChromeDriver when missing and possible, or fails saying what to do. */
  static synchronized void ensureInstalled() {
    if (present()) {
      return;
    }
    if (!installTried && isRoot() && Files.isExecutable(APT_GET)) {
      installTried = true;
      install();
      if (present()) {
        return;
      }
    }
    throw new IllegalStateException(
        "the dashboard's browser tests need Chromium at "
            + CHROMIUM
            + " and ChromeDriver at "
            + CHROMEDRIVER
            + (Files.isExecutable(CHROMIUM) ? "" : " (Chromium is missing)")
            + (Files.isExecutable(CHROMEDRIVER) ? "" : " (ChromeDriver is missing)")
            + ": install them (Debian/Ubuntu: apt-get install chromium chromium-driver), or name"
            + " other binaries with -Dredrive.chromium=... -Dredrive.chromedriver=..."
            + (installTried ? "; the automatic install failed, see " + installLog() : ""));
  }

  private static boolean present() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static Path installLog() {
    return TARGET.resolve("browser").resolve("apt-get.log");
  }

  private static void install() {
    Path log = installLog();
    try {
      Files.createDirectories(log.getParent());
      Process p =
          new ProcessBuilder(
                  List.of(
                      "sh",
                      "-c",
                      "apt-get update -qq && apt-get install -y -qq chromium chromium-driver"))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      p.getOutputStream().close();
      if (!p.waitFor(INSTALL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        Files.writeString(
            log,
            "\n(gave up after " + INSTALL_WAIT + ")\n",
            StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.APPEND);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not run apt-get to install Chromium", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted installing Chromium", e);
    }
  }
}
