package io.redrive.server.auth;

import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstancePage;
import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.WorkflowClient;
import java.util.function.Predicate;

/**
 * The scope rule for deleting a workflow tree, shared by the API and the dashboard: a root's delete
 * takes every instance under it, so a key limited to some orchestrations must see each of them.
 */
public final class WorkflowTrees {
  private WorkflowTrees() {}

  /**
   * Pages through the tree of {@code rootId}; refuses (403) when {@code mayAccess} rejects the
   * orchestration name of any instance in it.
   */
  public static void requireInScope(
      WorkflowClient client, String rootId, Predicate<String> mayAccess) {
    String cursor = null;
    do {
      InstancePage page =
          client.list(
              InstanceQuery.all(InstanceQuery.MAX_LIMIT).withRootId(rootId).withCursor(cursor));
      for (InstanceInfo i : page.instances()) {
        if (!mayAccess.test(i.name())) {
          throw AuthException.forbidden(
              "this key may not delete the tree of \""
                  + rootId
                  + "\": it holds instances outside its workflows scope");
        }
      }
      cursor = page.nextCursor();
    } while (cursor != null);
  }
}
