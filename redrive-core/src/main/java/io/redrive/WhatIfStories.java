package io.redrive;

import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.Queue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the stories a what-if replays (docs/engine.md, "What-if for retry policies"): a queue's
 * dead messages, those its dead-letter queue holds from it, and its kept completed stories, that
 * ended at or after a time, each with its history. Reading only; at most {@link #MAX_STORIES}.
 * Thread-safe.
 */
final class WhatIfStories {
  /** The most stories one what-if reads (one read each for its history). */
  static final int MAX_STORIES = 10_000;

  private final Function<MessageQuery, MessagePage> list;
  private final Function<String, Message> get;

  WhatIfStories(Function<MessageQuery, MessagePage> list, Function<String, Message> get) {
    this.list = list;
    this.get = get;
  }

  /** The stories of {@code queue} that ended at or after {@code from}, oldest id first per kind. */
  List<Message> read(Queue queue, Instant from) {
    List<Message> out = new ArrayList<>();
    collect(queue.name(), MessageState.DEAD, null, from, out);
    DeadLetter dl = queue.policy().deadLetter();
    if (dl != null && dl.mode() == DeadLetter.Mode.MOVE) {
      collect(dl.queue(), MessageState.DEAD, queue.name(), from, out);
    }
    collect(queue.name(), MessageState.COMPLETED, null, from, out);
    return out;
  }

  private void collect(
      String queue, MessageState state, String sourceQueue, Instant from, List<Message> out) {
    String after = null;
    do {
      MessageQuery q =
          MessageQuery.all(queue).withStates(Set.of(state)).withLimit(MessageQuery.MAX_LIMIT);
      MessagePage page = list.apply(after == null ? q : q.withAfter(after));
      for (Message m : page.messages()) {
        if (out.size() >= MAX_STORIES) {
          return;
        }
        Instant end = state == MessageState.COMPLETED ? m.completedAt() : m.deadAt();
        boolean fromQueue = sourceQueue == null || sourceQueue.equals(m.sourceQueue());
        if (fromQueue && end != null && !end.isBefore(from)) {
          out.add(get.apply(m.id()));
        }
      }
      after = page.next();
    } while (after != null);
  }
}
