package io.redrive.message;

import java.util.List;

/**
 * One page of messages (history not included; get a message for its story).
 *
 * @param messages the page, in serve order
 * @param next the cursor for the next page, or null when this is the last
 */
public record MessagePage(List<Message> messages, String next) {}
