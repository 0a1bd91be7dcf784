package io.redrive.deadletter;

import java.util.List;

/**
 * The outcome of an import.
 *
 * @param imported new ids, one per imported message
 * @param duplicates source ids already present in the queue (skipped)
 */
public record ImportResult(List<String> imported, List<String> duplicates) {}
