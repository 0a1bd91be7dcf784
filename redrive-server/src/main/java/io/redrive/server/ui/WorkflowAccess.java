package io.redrive.server.ui;

import io.redrive.error.InstanceNotFoundException;
import io.redrive.workflow.InstanceDetail;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.WorkflowClient;

/**
 * The instances a dashboard visitor may see: an instance of an orchestration outside the key's
 * {@code workflows} scope answers exactly as a missing one (INSTANCE_NOT_FOUND), the same wall as
 * the API's.
 */
final class WorkflowAccess {
  private final WorkflowClient client;

  WorkflowAccess(WorkflowClient client) {
    this.client = client;
  }

  WorkflowClient client() {
    return client;
  }

  /** The instance id of the path, checked as the API checks it. */
  static String id(UiRequest r) {
    String id = r.path("id");
    if (id.isBlank() || id.length() > 200 || id.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          "id: not an instance id (1 to 200 characters, no control characters)");
    }
    return id;
  }

  /** True when the visitor's key may see instances of {@code name}. */
  static boolean visible(UiRequest r, String name) {
    return r.principal().mayAccessWorkflow(name);
  }

  /** The instance, or INSTANCE_NOT_FOUND also when the key's scope hides it. */
  InstanceInfo find(UiRequest r, String id) {
    InstanceInfo row = client.get(id).orElseThrow(() -> new InstanceNotFoundException(id));
    if (!visible(r, row.name())) {
      throw new InstanceNotFoundException(id);
    }
    return row;
  }

  /** As {@link #find}, with what the instance waits on and has outstanding. */
  InstanceDetail inspect(UiRequest r, String id) {
    InstanceDetail d = client.inspect(id).orElseThrow(() -> new InstanceNotFoundException(id));
    if (!visible(r, d.instance().name())) {
      throw new InstanceNotFoundException(id);
    }
    return d;
  }
}
