package io.redrive.server.http;

import io.redrive.Redrive;
import io.redrive.error.MessageNotFoundException;
import io.redrive.message.Message;
import io.redrive.queue.Queue;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages a key may see: a key limited to some queues resolves prefixes among those queues'
 * messages only, and a message elsewhere is not found exactly as a missing one.
 */
final class VisibleMessages {
  private final Redrive redrive;

  VisibleMessages(Redrive redrive) {
    this.redrive = redrive;
  }

  /**
   * A message by id or unique prefix whose queue the caller may use for the route. A key limited to
   * some queues resolves prefixes among those queues' messages only, and a message elsewhere is not
   * found exactly as a missing one: its id, queue and existence stay hidden.
   */
  Message find(Exchange ex, String idOrPrefix) {
    if (!ex.scoped()) {
      Message m = redrive.getMessage(redrive.resolveId(idOrPrefix));
      ex.authorizeQueue(m.queue());
      return m;
    }
    List<String> visible = new ArrayList<>();
    for (Queue q : redrive.listQueues()) {
      if (ex.inScope(q.name())) {
        visible.add(q.name());
      }
    }
    Message m = redrive.getMessage(redrive.resolveId(idOrPrefix, visible));
    if (!ex.inScope(m.queue())) {
      // Moved out of scope since the lookup (a redrive): answer as for a missing message.
      throw new MessageNotFoundException(idOrPrefix);
    }
    ex.authorizeQueue(m.queue());
    return m;
  }
}
