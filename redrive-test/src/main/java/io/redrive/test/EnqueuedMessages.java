package io.redrive.test;

import io.redrive.Redrive;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/** Reads a queue's waiting messages and checks them against a matcher, failing with the story. */
final class EnqueuedMessages {
  private static final int SHOWN = 20;
  private static final int PAYLOAD_SHOWN = 200;

  private final Redrive engine;

  EnqueuedMessages(Redrive engine) {
    this.engine = engine;
  }

  List<Message> waiting(String queue) {
    List<Message> all = new ArrayList<>();
    MessageQuery query =
        MessageQuery.all(queue)
            .withStates(EnumSet.of(MessageState.READY, MessageState.SCHEDULED, MessageState.LEASED))
            .withLimit(500);
    MessagePage page = engine.listMessages(query);
    all.addAll(page.messages());
    while (page.next() != null) {
      page = engine.listMessages(query.withAfter(page.next()));
      all.addAll(page.messages());
    }
    return all;
  }

  List<Message> assertCount(String queue, MessageMatcher matcher, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count: must not be negative, was " + count);
    }
    List<Message> waiting = waiting(queue);
    List<Message> matched = waiting.stream().filter(matcher::matches).toList();
    if (matched.size() != count) {
      throw new AssertionError(describe(queue, matcher, count, matched.size(), waiting));
    }
    return matched;
  }

  private static String describe(
      String queue, MessageMatcher matcher, int expected, int found, List<Message> waiting) {
    StringBuilder s =
        new StringBuilder()
            .append("expected ")
            .append(expected)
            .append(expected == 1 ? " message" : " messages")
            .append(" on queue \"")
            .append(queue)
            .append("\" matching ")
            .append(matcher)
            .append(", found ")
            .append(found)
            .append("; the queue holds ")
            .append(waiting.size())
            .append(waiting.size() == 1 ? " waiting message" : " waiting messages");
    for (int i = 0; i < Math.min(SHOWN, waiting.size()); i++) {
      Message m = waiting.get(i);
      s.append("\n  ")
          .append(m.id())
          .append(' ')
          .append(m.state())
          .append(" type=")
          .append(m.type())
          .append(" payload=")
          .append(shorten(m.payload()));
    }
    if (waiting.size() > SHOWN) {
      s.append("\n  ... and ").append(waiting.size() - SHOWN).append(" more");
    }
    return s.toString();
  }

  private static String shorten(String payload) {
    if (payload == null) {
      return "null";
    }
    return payload.length() <= PAYLOAD_SHOWN ? payload : payload.substring(0, PAYLOAD_SHOWN) + "…";
  }
}
