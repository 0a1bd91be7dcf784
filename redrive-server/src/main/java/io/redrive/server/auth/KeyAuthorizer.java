package io.redrive.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Authorizes {@code Authorization: Bearer <secret>} requests against a fixed list of API keys.
 * Immutable and thread-safe.
 *
 * <p>Implementation notes: the presented secret is hashed with SHA-256 and compared with the digest
 * of <em>every</em> key using {@link MessageDigest#isEqual}, without an early exit, so the time
 * taken does not tell which key (or how much of one) matched. Comparing fixed-length digests also
 * hides the secrets' lengths. No message this class produces contains a presented or a configured
 * secret; keys are named by their {@code name}.
 */
public final class KeyAuthorizer implements Authorizer {
  /** Shortest allowed secret. */
  public static final int MIN_SECRET_LENGTH = 16;

  private static final String BEARER = "Bearer";

  private final List<Entry> entries;

  /**
   * An authorizer over {@code keys}; with no keys it is disabled and every call is anonymous admin.
   *
   * @throws IllegalArgumentException naming {@code keys[i].<field>} when a key is invalid (see
   *     {@link #validate(List)})
   */
  public KeyAuthorizer(List<ApiKey> keys) {
    validate(keys);
    List<Entry> list = new ArrayList<>(keys.size());
    for (ApiKey k : keys) {
      List<String> scope = k.queues() == null ? List.of() : List.copyOf(k.queues());
      List<String> workflows = k.workflows() == null ? List.of() : List.copyOf(k.workflows());
      list.add(
          new Entry(
              sha256(k.secret()), new Principal(k.name(), k.role(), false, scope, workflows)));
    }
    this.entries = List.copyOf(list);
  }

  /**
   * Checks a key list: every key has a name, a role and a secret of at least {@value
   * #MIN_SECRET_LENGTH} printable ASCII characters without spaces; names and secrets are unique;
   * queue patterns are valid ({@link QueuePatterns}).
   *
   * @throws IllegalArgumentException whose message starts with {@code keys[i].<field>: }; it never
   *     contains a secret
   */
  public static void validate(List<ApiKey> keys) {
    if (keys == null) {
      throw new IllegalArgumentException("keys: is required (use an empty list for no keys)");
    }
    Map<String, Integer> names = new HashMap<>();
    Map<String, Integer> secrets = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      ApiKey k = keys.get(i);
      String at = "keys[" + i + "]";
      if (k == null) {
        throw new IllegalArgumentException(at + ": is null");
      }
      if (k.name() == null || k.name().isBlank()) {
        throw new IllegalArgumentException(at + ".name: is required");
      }
      Integer sameName = names.putIfAbsent(k.name(), i);
      if (sameName != null) {
        throw new IllegalArgumentException(
            at + ".name: duplicate key name \"" + k.name() + "\" (also keys[" + sameName + "])");
      }
      String secret = k.secret();
      if (secret == null || secret.isEmpty()) {
        throw new IllegalArgumentException(at + ".secret: is required");
      }
      if (secret.length() < MIN_SECRET_LENGTH) {
        throw new IllegalArgumentException(
            at + ".secret: must be at least " + MIN_SECRET_LENGTH + " characters long");
      }
      if (!secret.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
        throw new IllegalArgumentException(
            at + ".secret: must be printable ASCII without spaces (it is sent in an HTTP header)");
      }
      Integer sameSecret = secrets.putIfAbsent(secret, i);
      if (sameSecret != null) {
        throw new IllegalArgumentException(
            at
                + ".secret: same secret as keys["
                + sameSecret
                + "] (\""
                + keys.get(sameSecret).name()
                + "\"); every key needs its own");
      }
      if (k.role() == null) {
        throw new IllegalArgumentException(at + ".role: is required");
      }
      if (k.queues() != null) {
        for (int j = 0; j < k.queues().size(); j++) {
          QueuePatterns.require(at + ".queues[" + j + "]", k.queues().get(j));
        }
      }
      if (k.workflows() != null) {
        for (int j = 0; j < k.workflows().size(); j++) {
          QueuePatterns.requireWorkflow(at + ".workflows[" + j + "]", k.workflows().get(j));
        }
      }
    }
  }

  @Override
  public Principal authorize(String authorizationHeader, Permission permission, String queue) {
    if (permission == null) {
      throw new IllegalArgumentException("permission: is required");
    }
    if (entries.isEmpty()) {
      return Principal.anonymousAdmin();
    }
    Principal principal = authenticate(authorizationHeader);
    if (!principal.role().grants(permission)) {
      throw AuthException.forbidden(
          "key \""
              + principal.name()
              + "\" has role "
              + principal.role().label()
              + ", which does not grant "
              + permission);
    }
    if (queue != null && !principal.mayAccess(queue)) {
      throw AuthException.forbidden(
          "key \""
              + principal.name()
              + "\" may not access queue \""
              + queue
              + "\" (it is limited to "
              + String.join(", ", principal.queues())
              + ")");
    }
    return principal;
  }

  @Override
  public boolean enabled() {
    return !entries.isEmpty();
  }

  /**
   * A digest over every key's digest, in name order: nodes with the same keys share it, and any
   * change of keys changes it (ending every dashboard session). Null without keys.
   */
  @Override
  public byte[] sessionKeyMaterial() {
    if (entries.isEmpty()) {
      return null;
    }
    try {
      MessageDigest all = MessageDigest.getInstance("SHA-256");
      entries.stream()
          .sorted(java.util.Comparator.comparing(e -> e.principal().name()))
          .forEach(e -> all.update(e.digest()));
      return all.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  private Principal authenticate(String header) {
    if (header == null || header.isBlank()) {
      throw AuthException.unauthorized(
          "missing Authorization header (send Authorization: Bearer <key>)");
    }
    String h = header.strip();
    boolean bearer =
        h.regionMatches(true, 0, BEARER, 0, BEARER.length())
            && (h.length() == BEARER.length() || Character.isWhitespace(h.charAt(BEARER.length())));
    if (!bearer) {
      throw AuthException.unauthorized("Authorization header must use the Bearer scheme");
    }
    String token = h.substring(BEARER.length()).strip();
    if (token.isEmpty()) {
      throw AuthException.unauthorized("Authorization header has an empty bearer token");
    }
    byte[] presented = sha256(token);
    Principal found = null;
    for (Entry e : entries) {
      boolean same = MessageDigest.isEqual(presented, e.digest);
      found = same ? e.principal : found;
    }
    if (found == null) {
      throw AuthException.unauthorized("unknown API key");
    }
    return found;
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  private record Entry(byte[] digest, Principal principal) {}

  @Override
  public String toString() {
    List<String> names = new ArrayList<>();
    for (Entry e : entries) {
      names.add(e.principal.name());
    }
    return "KeyAuthorizer" + names;
  }
}
