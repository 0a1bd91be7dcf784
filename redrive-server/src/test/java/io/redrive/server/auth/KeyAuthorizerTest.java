package io.redrive.server.auth;

import static io.redrive.server.auth.Permission.ADMIN;
import static io.redrive.server.auth.Permission.CONSUME;
import static io.redrive.server.auth.Permission.PRODUCE;
import static io.redrive.server.auth.Permission.VIEW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyAuthorizerTest {
  /**
   * The Permissions table of docs/api.md, written out rather than derived from {@link Role}: admin
   * everything; producer VIEW + enqueue; consumer VIEW + lease and settle; viewer VIEW.
   */
  private static final Map<Role, Set<Permission>> DOCUMENTED =
      Map.of(
          Role.ADMIN, EnumSet.of(VIEW, PRODUCE, CONSUME, ADMIN),
          Role.PRODUCER, EnumSet.of(VIEW, PRODUCE),
          Role.CONSUMER, EnumSet.of(VIEW, CONSUME),
          Role.VIEWER, EnumSet.of(VIEW));

  private static final List<String> SCOPE = List.of("orders", "billing.*");

  /** Which queue a call touches, relative to the key's scope {@code orders, billing.*}. */
  enum Target {
    IN_SCOPE_EXACT("orders"),
    IN_SCOPE_GLOB("billing.eu"),
    OUT_OF_SCOPE("payments"),
    NOT_ABOUT_ONE_QUEUE(null);

    final String queue;

    Target(String queue) {
      this.queue = queue;
    }
  }

  private static String secretOf(Role role) {
    return "secret-" + role.label() + "-0123456789abcdef";
  }

  private static final KeyAuthorizer SCOPED = new KeyAuthorizer(scopedKeys());

  private static List<ApiKey> scopedKeys() {
    List<ApiKey> keys = new ArrayList<>();
    for (Role r : Role.values()) {
      keys.add(new ApiKey("k-" + r.label(), secretOf(r), r, SCOPE));
    }
    return keys;
  }

  static Stream<Arguments> matrix() {
    List<Arguments> out = new ArrayList<>();
    for (Role r : Role.values()) {
      for (Permission p : Permission.values()) {
        for (Target t : Target.values()) {
          boolean allowed = DOCUMENTED.get(r).contains(p) && t != Target.OUT_OF_SCOPE;
          out.add(Arguments.of(r, p, t, allowed));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2} -> allowed={3}")
  @MethodSource("matrix")
  void authorize_roleTimesPermissionTimesScope_matchesDocumentedTable(
      Role role, Permission permission, Target target, boolean allowed) {
    String header = "Bearer " + secretOf(role);
    if (allowed) {
      Principal p = SCOPED.authorize(header, permission, target.queue);
      assertThat(p.name()).isEqualTo("k-" + role.label());
      assertThat(p.role()).isEqualTo(role);
      assertThat(p.anonymous()).isFalse();
      assertThat(p.queues()).isEqualTo(SCOPE);
      return;
    }
    AuthException e =
        catchThrowableOfType(
            AuthException.class, () -> SCOPED.authorize(header, permission, target.queue));
    assertThat(e.status()).isEqualTo(403);
    assertThat(e.code()).isEqualTo("FORBIDDEN");
    assertThat(e.getMessage()).contains("\"k-" + role.label() + "\"").doesNotContain("secret-");
    if (!DOCUMENTED.get(role).contains(permission)) {
      assertThat(e.getMessage())
          .isEqualTo(
              "key \"k-"
                  + role.label()
                  + "\" has role "
                  + role.label()
                  + ", which does not grant "
                  + permission);
    } else {
      assertThat(e.getMessage())
          .isEqualTo(
              "key \"k-"
                  + role.label()
                  + "\" may not access queue \"payments\" (it is limited to orders, billing.*)");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"orders", "billing.eu", "payments", "anything-at-all"})
  void authorize_unscopedKey_everyQueue(String queue) {
    KeyAuthorizer a =
        new KeyAuthorizer(List.of(new ApiKey("all", "all-queues-secret-123", Role.VIEWER, null)));
    assertThat(a.authorize("Bearer all-queues-secret-123", VIEW, queue).name()).isEqualTo("all");
    assertThat(a.authorize("Bearer all-queues-secret-123", VIEW, queue).mayAccess(queue)).isTrue();
  }

  @Test
  void authorize_starPattern_everyQueue() {
    KeyAuthorizer a =
        new KeyAuthorizer(
            List.of(new ApiKey("star", "star-queues-secret-123", Role.ADMIN, List.of("*"))));
    assertThat(a.authorize("Bearer star-queues-secret-123", ADMIN, "x.y.z").name())
        .isEqualTo("star");
  }

  @Test
  void principal_mayAccess_filtersQueueLists() {
    Principal p = SCOPED.authorize("Bearer " + secretOf(Role.VIEWER), VIEW, null);
    assertThat(
            Stream.of("orders", "orders.eu", "billing", "billing.eu", "billing.eu.x", "payments")
                .filter(p::mayAccess))
        .containsExactly("orders", "billing.eu", "billing.eu.x");
  }

  @Test
  void noKeys_disabled_everyCallIsAnonymousAdmin() {
    KeyAuthorizer a = new KeyAuthorizer(List.of());
    assertThat(a.enabled()).isFalse();
    for (Permission p : Permission.values()) {
      Principal principal = a.authorize(null, p, "orders");
      assertThat(principal.anonymous()).isTrue();
      assertThat(principal.role()).isEqualTo(Role.ADMIN);
      assertThat(principal.mayAccess("orders")).isTrue();
    }
    assertThat(a.authorize("Bearer whatever", VIEW, null).anonymous()).isTrue();
  }

  @Test
  void withKeys_enabled() {
    assertThat(SCOPED.enabled()).isTrue();
  }

  // ---- header parsing: 401 ----

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"   "})
  void authorize_missingHeader_unauthorized(String header) {
    assertUnauthorized(header, "missing Authorization header (send Authorization: Bearer <key>)");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Basic dXNlcjpwYXNz",
        "Token secret-admin-0123456789abcdef",
        "Bearersecret-admin-0123456789abcdef",
        "secret-admin-0123456789abcdef"
      })
  void authorize_otherScheme_unauthorized(String header) {
    assertUnauthorized(header, "Authorization header must use the Bearer scheme");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Bearer", "Bearer ", "Bearer    ", "bearer\t"})
  void authorize_emptyBearerToken_unauthorized(String header) {
    assertUnauthorized(header, "Authorization header has an empty bearer token");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "an-unknown-but-long-secret",
        "secret-admin-0123456789abcde", // one character short of a real key
        "secret-admin-0123456789abcdefX", // one character too many
        "SECRET-ADMIN-0123456789ABCDEF"
      })
  void authorize_unknownKey_unauthorizedWithoutEchoingIt(String presented) {
    AuthException e =
        catchThrowableOfType(
            AuthException.class, () -> SCOPED.authorize("Bearer " + presented, VIEW, null));
    assertThat(e.status()).isEqualTo(401);
    assertThat(e.getMessage()).isEqualTo("unknown API key").doesNotContain(presented);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Bearer secret-viewer-0123456789abcdef",
        "bearer secret-viewer-0123456789abcdef",
        "BEARER   secret-viewer-0123456789abcdef  ",
        "  Bearer\tsecret-viewer-0123456789abcdef"
      })
  void authorize_bearerSchemeCaseAndSpacing_accepted(String header) {
    assertThat(SCOPED.authorize(header, VIEW, "orders").role()).isEqualTo(Role.VIEWER);
  }

  @Test
  void authorize_nullPermission_rejected() {
    assertThatThrownBy(() -> SCOPED.authorize("Bearer " + secretOf(Role.ADMIN), null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("permission: is required");
  }

  @Test
  void messagesAndToStrings_neverContainASecret() {
    List<String> texts = new ArrayList<>();
    for (Role r : Role.values()) {
      for (Permission p : Permission.values()) {
        for (Target t : Target.values()) {
          try {
            texts.add(SCOPED.authorize("Bearer " + secretOf(r), p, t.queue).toString());
          } catch (AuthException e) {
            texts.add(e.getMessage());
          }
        }
      }
    }
    texts.add(SCOPED.toString());
    scopedKeys().forEach(k -> texts.add(k.toString()));
    for (String text : texts) {
      assertThat(text).doesNotContain("secret-");
    }
  }

  // ---- key validation at construction ----

  static Stream<Arguments> invalidKeys() {
    ApiKey ok = new ApiKey("ok", "ok-secret-0123456789", Role.ADMIN, List.of());
    return Stream.of(
        Arguments.of(
            List.of(new ApiKey(" ", "a-secret-0123456789", Role.ADMIN, null)),
            "keys[0].name: is required"),
        Arguments.of(
            List.of(ok, new ApiKey("ok", "b-secret-0123456789", Role.ADMIN, null)),
            "keys[1].name: duplicate key name \"ok\" (also keys[0])"),
        Arguments.of(
            List.of(ok, new ApiKey("b", null, Role.ADMIN, null)), "keys[1].secret: is required"),
        Arguments.of(
            List.of(new ApiKey("a", "short-secret", Role.ADMIN, null)),
            "keys[0].secret: must be at least 16 characters long"),
        Arguments.of(
            List.of(new ApiKey("a", "has a space in the secret", Role.ADMIN, null)),
            "keys[0].secret: must be printable ASCII without spaces (it is sent in an HTTP"
                + " header)"),
        Arguments.of(
            List.of(ok, new ApiKey("b", "ok-secret-0123456789", Role.VIEWER, null)),
            "keys[1].secret: same secret as keys[0] (\"ok\"); every key needs its own"),
        Arguments.of(
            List.of(new ApiKey("a", "a-secret-0123456789", null, null)),
            "keys[0].role: is required"),
        Arguments.of(
            List.of(new ApiKey("a", "a-secret-0123456789", Role.ADMIN, List.of("orders", "a b"))),
            "keys[0].queues[1]: invalid queue pattern \"a b\" (use a queue name, or a glob with"
                + " '*' such as \"orders.*\")"),
        Arguments.of(
            List.of(new ApiKey("a", "a-secret-0123456789", Role.ADMIN, List.of(""))),
            "keys[0].queues[0]: queue pattern is empty"));
  }

  @ParameterizedTest
  @MethodSource("invalidKeys")
  void construct_invalidKey_namesKeyAndField(List<ApiKey> keys, String message) {
    assertThatThrownBy(() -> new KeyAuthorizer(keys))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message)
        .hasMessageNotContaining("secret-0123456789");
  }

  private static void assertUnauthorized(String header, String message) {
    AuthException e =
        catchThrowableOfType(AuthException.class, () -> SCOPED.authorize(header, VIEW, null));
    assertThat(e.status()).isEqualTo(401);
    assertThat(e.code()).isEqualTo("UNAUTHORIZED");
    assertThat(e.getMessage()).isEqualTo(message).doesNotContain("secret-");
  }
}
