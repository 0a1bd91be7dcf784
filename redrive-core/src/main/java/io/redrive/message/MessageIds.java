package io.redrive.message;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * Generates message ids as UUIDv7 strings: unique across nodes and ordered by creation time.
 * Thread-safe.
 */
public final class MessageIds {
  private static final SecureRandom RANDOM = new SecureRandom();

  private MessageIds() {}

  /** A new id whose time part is {@code clock}'s current instant. */
  public static String next(Clock clock) {
    long millis = clock.millis();
    long randA = RANDOM.nextInt(1 << 12);
    long msb = (millis << 16) | 0x7000L | randA;
    long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(msb, lsb).toString();
  }
}
