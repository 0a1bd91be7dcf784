package io.redrive.server.ui;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The dashboard's sessions, kept in the browser: a session cookie is the API key the operator typed
 * at login (empty without keys), with its expiry, sealed with AES-GCM under the session key. Every
 * page then authorizes the key exactly as the API does, so a role or scope change, or a removed
 * key, takes effect at once. The session key comes from the configured keys' digests, so every
 * server node with the same keys opens every node's cookies (no sticky sessions, no shared store);
 * changing the keys ends every session. The CSRF token of a session is a MAC of its nonce: only a
 * page that was served the session can know it. Thread-safe.
 */
final class UiSessions {
  /** The session cookie's name. */
  static final String COOKIE = "redrive_session";

  /** How long a session lasts after login, whatever the activity. */
  static final Duration LIFETIME = Duration.ofHours(8);

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();

  private final SecretKeySpec sealKey;
  private final SecretKeySpec macKey;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  // Logged-out nonces until their session would have expired anyway: a copied cookie stops
  // working on this node at logout (other nodes honour it until it expires; see docs/dashboard.md).
  private final Map<String, Instant> revoked = new ConcurrentHashMap<>();

  /**
   * @param keyMaterial secret bytes every node shares (derived from the configured keys), or null
   *     for a random per-process key (no keys configured: one loopback node)
   */
  UiSessions(byte[] keyMaterial, Clock clock) {
    byte[] material = keyMaterial;
    if (material == null) {
      material = new byte[32];
      random.nextBytes(material);
    }
    this.sealKey = new SecretKeySpec(derive(material, "redrive-ui-seal-v1"), 0, 16, "AES");
    this.macKey = new SecretKeySpec(derive(material, "redrive-ui-mac-v1"), "HmacSHA256");
    this.clock = clock;
  }

  /** An open session: the key typed at login (empty without keys) and the cookie's nonce. */
  record Session(String secret, String nonce, Instant expiresAt) {}

  /** A new session for {@code secret} (empty string without keys), as a cookie value. */
  String open(String secret) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    byte[] plain = secret.getBytes(StandardCharsets.UTF_8);
    ByteBuffer text = ByteBuffer.allocate(8 + plain.length);
    text.putLong(clock.instant().plus(LIFETIME).toEpochMilli()).put(plain);
    try {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, sealKey, new GCMParameterSpec(TAG_BITS, nonce));
      byte[] sealed = c.doFinal(text.array());
      return B64.encodeToString(
          ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot seal a dashboard session", e);
    }
  }

  /** The session a cookie value holds, or empty when it is missing, forged, expired or revoked. */
  Optional<Session> read(String cookie) {
    if (cookie == null || cookie.isEmpty() || cookie.length() > 4096) {
      return Optional.empty();
    }
    try {
      byte[] all = B64D.decode(cookie);
      if (all.length < NONCE_BYTES + 8 + TAG_BITS / 8) {
        return Optional.empty();
      }
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.DECRYPT_MODE, sealKey, new GCMParameterSpec(TAG_BITS, all, 0, NONCE_BYTES));
      ByteBuffer text = ByteBuffer.wrap(c.doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES));
      Instant expiresAt = Instant.ofEpochMilli(text.getLong());
      String nonce = B64.encodeToString(java.util.Arrays.copyOf(all, NONCE_BYTES));
      if (!clock.instant().isBefore(expiresAt) || revoked.containsKey(nonce)) {
        return Optional.empty();
      }
      byte[] secret = new byte[text.remaining()];
      text.get(secret);
      return Optional.of(new Session(new String(secret, StandardCharsets.UTF_8), nonce, expiresAt));
    } catch (IllegalArgumentException | GeneralSecurityException e) {
      return Optional.empty(); // not base64, or the tag does not match: not one of ours
    }
  }

  /** Ends a session on this node (the browser's cookie is cleared by the caller). */
  void revoke(Session session) {
    Instant now = clock.instant();
    revoked.values().removeIf(until -> !now.isBefore(until));
    revoked.put(session.nonce(), session.expiresAt());
  }

  /** The CSRF token every form of this session carries. */
  String csrfToken(Session session) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(macKey);
      return B64.encodeToString(
          mac.doFinal(("csrf:" + session.nonce()).getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot compute a CSRF token", e);
    }
  }

  /** True when {@code token} is this session's CSRF token (compared in constant time). */
  boolean csrfMatches(Session session, String token) {
    if (token == null) {
      return false;
    }
    return MessageDigest.isEqual(
        csrfToken(session).getBytes(StandardCharsets.US_ASCII),
        token.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] derive(byte[] material, String label) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(material, "HmacSHA256"));
      return mac.doFinal(label.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot derive the dashboard's session keys", e);
    }
  }
}
