package io.redrive.server.ui;

import io.redrive.workflow.InstanceInfo;
import java.util.List;

/**
 * The instance list's model: the filters, one page of instances (newest first, only those the key
 * may see) and the paging links, or the matches of a search by id prefix.
 *
 * @param filters the filters of the page
 * @param instances the instances shown
 * @param search the search text when the page shows a search's matches, else null
 * @param searchNote what the search found, in words (null without a search)
 * @param nextHref the next page's address, or null on the last page
 * @param previousHref the previous page's address, or null on the first page
 * @param deleted the id of an instance just deleted from the dashboard (a notice), or null
 * @param fingerprint the failure group's key when the page shows only its instances, else null
 */
public record WorkflowListView(
    WorkflowFilters filters,
    List<InstanceInfo> instances,
    String search,
    String searchNote,
    String nextHref,
    String previousHref,
    String deleted,
    String fingerprint) {}
