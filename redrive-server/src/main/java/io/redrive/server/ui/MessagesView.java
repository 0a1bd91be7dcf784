package io.redrive.server.ui;

import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.queue.Queue;
import java.util.List;

/**
 * A page of a queue's messages.
 *
 * @param queue the queue
 * @param state the state shown, or null for every state
 * @param messages the page, in serve order
 * @param next the cursor of the next page, or null on the last
 */
public record MessagesView(Queue queue, MessageState state, List<Message> messages, String next) {}
