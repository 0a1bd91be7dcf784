package io.redrive.deadletter;

import java.util.List;

/**
 * The outcome of dropping messages.
 *
 * @param dropped ids deleted
 * @param notFound ids that did not exist
 */
public record DropResult(List<String> dropped, List<String> notFound) {}
