package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.store.Store;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A server whose store keeps no workflows (a store that is only a {@link Store}, not its workflow
 * half, nor its objectives half): the dashboard's workflow pages say that workflows are not
 * enabled, instead of failing, and the overview shows no objectives card instead of failing.
 */
class WorkflowsOffDashboardTest {

  /** {@code store} seen through the {@link Store} interface alone: no workflow half. */
  private static Store queuesOnly(Store store) {
    return (Store)
        Proxy.newProxyInstance(
            Store.class.getClassLoader(),
            new Class<?>[] {Store.class},
            (proxy, method, args) -> {
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void storeWithoutWorkflows_workflowPagesSaySo() throws Exception {
    try (Store store = StoreKind.SQLITE.newDatabase().open()) {
      RedriveServer server =
          RedriveServer.start(TestServers.config(), TestServers.ALLOW_ALL, queuesOnly(store));
      try {
        UiClient ui = new UiClient(server.baseUrl());
        for (String path : new String[] {"/ui/workflows", "/ui/workflows/some-id"}) {
          HttpResponse<String> r = ui.get(path);
          assertThat(r.statusCode()).as(path).isEqualTo(200);
          assertThat(r.body()).as(path).contains("Workflows are not enabled on this server");
        }
        assertThat(ui.get("/ui/workflows/some-id/confirm?op=terminate").statusCode())
            .isEqualTo(404);
        assertThat(ui.get("/ui").statusCode()).isEqualTo(200);
      } finally {
        server.stop();
      }
    }
  }
}
