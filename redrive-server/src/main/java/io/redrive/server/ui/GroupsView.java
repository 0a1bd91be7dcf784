package io.redrive.server.ui;

import java.util.List;

/**
 * The dead-letter groups page's model.
 *
 * @param queue the queue whose groups are shown, or null for every queue the viewer may see
 * @param groups the groups of this page, largest first
 * @param offset this page's offset
 * @param nextOffset the next page's offset, or null on the last
 * @param totalDead dead messages in the groups of this page
 */
public record GroupsView(
    String queue, List<GroupCard> groups, int offset, Integer nextOffset, long totalDead) {}
