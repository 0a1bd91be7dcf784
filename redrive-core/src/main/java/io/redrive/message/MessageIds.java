package io.redrive.message;

import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Generates message ids as UUIDv7 strings: unique across nodes and ordered by creation time.
 * Thread-safe.
 */
public final class MessageIds {
  private MessageIds() {}

  /** A new id whose time part is {@code clock}'s current instant. */
  public static String next(Clock clock) {
    long millis = clock.millis();
    // Ids must be unique, not secret: a thread-local generator keeps enqueue off a shared lock.
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long randA = random.nextInt(1 << 12);
    long msb = (millis << 16) | 0x7000L | randA;
    long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(msb, lsb).toString();
  }
}
