package io.redrive.deadletter;

import java.util.List;

/**
 * The order of one stream's waiting (READY) messages in a queue after a redrive, redriven ones
 * included: the order in which they will be delivered. A dry run answers it without changing
 * anything.
 *
 * @param queue the target queue
 * @param stream the stream
 * @param ids message ids, first to be delivered first
 * @param redriven which of {@code ids} the redrive puts back
 */
public record StreamOrder(String queue, String stream, List<String> ids, List<String> redriven) {
  public StreamOrder {
    ids = List.copyOf(ids);
    redriven = List.copyOf(redriven);
  }
}
