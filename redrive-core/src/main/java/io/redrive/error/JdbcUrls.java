package io.redrive.error;

import java.util.regex.Pattern;

/**
 * Masks the password of JDBC urls (PostgreSQL: {@code password=} parameters and {@code
 * user:secret@}) in any text, so that no message, log or start line prints it. Stateless and
 * thread-safe.
 */
public final class JdbcUrls {
  /** {@code password=...} as a url parameter, up to the next parameter separator. */
  private static final Pattern PARAMETER =
      Pattern.compile("(?i)([?&;]\\s*password\\s*=)[^&;\\s\"']*");

  /**
   * {@code user:secret@host}: the user-info part of an authority, with or without its {@code //}
   * (the driver reads {@code //me:secret@host} as a host name and quotes it bare).
   */
  private static final Pattern USER_INFO = Pattern.compile("([^/:@\\s\"']+:)[^/@\\s\"']*@");

  private static final String MASK = "****";

  private JdbcUrls() {}

  /**
   * {@code text} (a url or a message containing one) with every url password replaced by {@code
   * ****}; null stays null.
   */
  public static String mask(String text) {
    if (text == null) {
      return null;
    }
    String out = PARAMETER.matcher(text).replaceAll("$1" + MASK);
    return USER_INFO.matcher(out).replaceAll("$1" + MASK + "@");
  }
}
