package io.redrive.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's Java blocks, so a module's tests can hold them to the example classes they compile
 * and run (from the module's directory: {@code ../README.md}, {@code src/test/java/<Class>.java}).
 */
public final class ReadmeBlocks {
  private static final Pattern JAVA = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

  private ReadmeBlocks() {}

  /** The README's Java block declaring {@code className}. */
  public static String block(String className) throws IOException {
    return block(Path.of("..", "README.md"), className);
  }

  /** The Java block of the Markdown file {@code doc} declaring {@code className}. */
  public static String block(Path doc, String className) throws IOException {
    String readme = Files.readString(doc);
    Matcher m = JAVA.matcher(readme);
    while (m.find()) {
      if (m.group(1).contains("public final class " + className + " ")) {
        return m.group(1).strip();
      }
    }
    throw new AssertionError(doc + " has no java block declaring " + className);
  }

  /** This module's copy of the example, as compiled and run by the tests. */
  public static String source(String className) throws IOException {
    return Files.readString(Path.of("src", "test", "java", className + ".java")).strip();
  }
}
