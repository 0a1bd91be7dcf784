package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An event a turn appends to history (its id is given at commit).
 *
 * @param kind the event kind
 * @param seq its command number, or null
 * @param name a name it carries, or null
 * @param data its JSON
 */
public record NewEvent(String kind, Long seq, String name, ObjectNode data) {}
