package io.redrive.server.http;

import io.redrive.error.InstanceNotFoundException;
import io.redrive.workflow.InstanceDetail;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.WorkflowClient;

/**
 * The workflow instances a key may see: a key limited to some orchestrations ({@code workflows}
 * patterns) finds the others missing, as a queue-scoped key finds other queues' messages missing.
 */
final class VisibleInstances {
  private final WorkflowClient client;

  VisibleInstances(WorkflowClient client) {
    this.client = client;
  }

  /** The instance id of the path, checked. */
  static String id(Exchange ex) {
    String id = ex.path("id");
    if (id.isBlank() || id.length() > 200 || id.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          "id: not an instance id (1 to 200 characters, no control characters)");
    }
    return id;
  }

  /** The instance of the path, or INSTANCE_NOT_FOUND also when the key's scope hides it. */
  InstanceInfo find(Exchange ex, String id) {
    InstanceInfo row = client.get(id).orElseThrow(() -> new InstanceNotFoundException(id));
    if (!ex.mayAccessWorkflow(row.name())) {
      throw new InstanceNotFoundException(id);
    }
    return row;
  }

  /** As {@link #find}, with what the instance waits on and has outstanding. */
  InstanceDetail inspect(Exchange ex, String id) {
    InstanceDetail detail = client.inspect(id).orElseThrow(() -> new InstanceNotFoundException(id));
    if (!ex.mayAccessWorkflow(detail.instance().name())) {
      throw new InstanceNotFoundException(id);
    }
    return detail;
  }
}
