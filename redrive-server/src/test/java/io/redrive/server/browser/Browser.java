package io.redrive.server.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * One running headless Chromium (from {@link Browsers#start()}): the driver, its console messages
 * and screenshots. {@link #close()} quits it and deletes its profile. Not thread-safe (one test
 * drives it at a time).
 */
public final class Browser implements AutoCloseable {
  /** Where {@link #screenshot} writes: {@code target/screenshots}. */
  public static final Path SCREENSHOTS = Browsers.TARGET.resolve("screenshots");

  private final ChromeDriver driver;
  private final ChromeDriverService service;
  private final Path profile;
  private final List<String> console = new ArrayList<>();

  Browser(ChromeDriver driver, ChromeDriverService service, Path profile) {
    this.driver = driver;
    this.service = service;
    this.profile = profile;
  }

  /** The WebDriver, for what the helpers here do not cover. */
  public ChromeDriver driver() {
    return driver;
  }

  /**
   * Every console message since the browser started (or since {@link #clearConsole()}), as {@code
   * LEVEL message} lines: the page's own logs, script errors and Content-Security-Policy violations
   * ({@code Refused to execute ...}) alike.
   */
  public List<String> console() {
    for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
      console.add(e.getLevel() + " " + e.getMessage());
    }
    return List.copyOf(console);
  }

  /** Forgets the console messages seen so far. */
  public void clearConsole() {
    console();
    console.clear();
  }

  /** Saves the viewport as {@code target/screenshots/<name>.png}; returns the file. */
  public Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path to = SCREENSHOTS.resolve(name + ".png");
      Path taken = driver.getScreenshotAs(OutputType.FILE).toPath();
      Files.move(taken, to, StandardCopyOption.REPLACE_EXISTING);
      return to;
    } catch (IOException e) {
      throw new UncheckedIOException("could not save screenshot " + name, e);
    }
  }

  /** Quits the browser and its driver and deletes the profile directory. */
  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      service.stop();
      deleteTree(profile);
    }
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover temporary profile is harmless
    }
  }
}
