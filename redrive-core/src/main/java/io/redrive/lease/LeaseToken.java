package io.redrive.lease;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Names one lease on one message: {@code <message id>.<32 hex nonce>}. Only the current token of a
 * message can settle it.
 *
 * @param messageId the leased message
 * @param nonce random part that changes with every lease
 */
public record LeaseToken(String messageId, String nonce) {
  // Tokens must be unguessable (over HTTP they are capabilities); one generator per thread keeps
  // leasing off a shared lock.
  private static final ThreadLocal<SecureRandom> RANDOM =
      ThreadLocal.withInitial(SecureRandom::new);
  private static final Pattern FORM = Pattern.compile("([0-9a-fA-F-]{36})\\.([0-9a-f]{32})");

  /** A fresh token for {@code messageId}. */
  public static LeaseToken issue(String messageId) {
    byte[] bytes = new byte[16];
    RANDOM.get().nextBytes(bytes);
    return new LeaseToken(messageId, HexFormat.of().formatHex(bytes));
  }

  /**
   * Parses a token given by a caller.
   *
   * @throws IllegalArgumentException when it is null or not of the token form
   */
  public static LeaseToken parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("leaseToken: is required");
    }
    var m = FORM.matcher(text);
    if (!m.matches()) {
      String shown = text.length() > 80 ? text.substring(0, 80) + "..." : text;
      throw new IllegalArgumentException("leaseToken: malformed lease token \"" + shown + "\"");
    }
    return new LeaseToken(m.group(1), m.group(2));
  }

  @Override
  public String toString() {
    return messageId + "." + nonce;
  }
}
