package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.server.HttpApiClient.Response;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.Role;
import io.redrive.server.config.ApiKey;
import io.redrive.server.config.StoreSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The auth matrix over real HTTP: each role × each endpoint class × a queue in or out of the key's
 * scope. Allowed calls pass auth (any status but 401/403); the others get 403 FORBIDDEN.
 */
class AuthMatrixHttpTest {
  private static final String ROOT = "root-secret-0123456789abcdef";
  private static final String IN = "in.q";
  private static final String OUT = "out.q";

  @TempDir static Path dir;
  private static RedriveServer server;
  private static HttpApiClient root;

  /** One representative endpoint per permission; the queue is filled in. */
  private enum Endpoint {
    VIEW_QUEUE(Permission.VIEW, (api, q) -> api.get("/v1/queues/" + q)),
    VIEW_MESSAGES(Permission.VIEW, (api, q) -> api.get("/v1/queues/" + q + "/messages")),
    PRODUCE_ENQUEUE(
        Permission.PRODUCE,
        (api, q) -> api.post("/v1/queues/" + q + "/messages", "{\"messages\":[{\"type\":\"t\"}]}")),
    CONSUME_LEASE(Permission.CONSUME, (api, q) -> api.post("/v1/queues/" + q + "/lease", "{}")),
    ADMIN_UPDATE(Permission.ADMIN, (api, q) -> api.patch("/v1/queues/" + q, "{\"maxAttempts\":6}")),
    ADMIN_REDRIVE(
        Permission.ADMIN,
        (api, q) -> api.post("/v1/queues/" + q + "/redrive", "{\"dryRun\":true}")),
    ADMIN_RETRY_DEAD(
        Permission.ADMIN, (api, q) -> api.post("/v1/queues/" + q + "/retry", "{\"dryRun\":true}"));

    final Permission permission;
    final BiFunction<HttpApiClient, String, Response> call;

    Endpoint(Permission permission, BiFunction<HttpApiClient, String, Response> call) {
      this.permission = permission;
      this.call = call;
    }
  }

  @BeforeAll
  static void start() {
    List<ApiKey> keys = new ArrayList<>();
    keys.add(new ApiKey("root", ROOT, Role.ADMIN, List.of()));
    for (Role role : Role.values()) {
      keys.add(new ApiKey(role.name().toLowerCase(), secret(role), role, List.of("in.*")));
    }
    server =
        RedriveServer.start(
            TestServers.config().withStore(StoreSettings.sqlite(dir)), new KeyAuthorizer(keys));
    root = new HttpApiClient(server.baseUrl()).withKey(ROOT);
    for (String q : List.of(IN, OUT)) {
      assertThat(root.post("/v1/queues", "{\"name\":\"" + q + "\"}").status()).isEqualTo(201);
    }
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  static Stream<Arguments> matrix() {
    List<Arguments> out = new ArrayList<>();
    for (Role role : Role.values()) {
      for (Endpoint endpoint : Endpoint.values()) {
        out.add(Arguments.of(role, endpoint, IN));
        out.add(Arguments.of(role, endpoint, OUT));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("matrix")
  void call_roleEndpointScope_allowedOnlyWhenRoleAndScopeGrantIt(
      Role role, Endpoint endpoint, String queue) {
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));
    boolean allowed = role.grants(endpoint.permission) && queue.equals(IN);

    Response r = endpoint.call.apply(api, queue);

    if (allowed) {
      assertThat(r.status()).as(r.toString()).isNotIn(401, 403).isLessThan(300);
    } else {
      ApiTestBase.assertError(r, 403, "FORBIDDEN");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roles")
  void listQueues_scopedKey_seesOnlyItsQueues(Role role) {
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));
    List<String> names = new ArrayList<>();
    api.get("/v1/queues").get("queues").forEach(n -> names.add(n.get("name").asText()));
    assertThat(names).containsExactly(IN);
  }

  static Stream<Role> roles() {
    return Stream.of(Role.values());
  }

  private static String secret(Role role) {
    return role.name().toLowerCase() + "-secret-0123456789abcdef";
  }
}
