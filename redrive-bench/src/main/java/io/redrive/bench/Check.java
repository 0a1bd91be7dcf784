package io.redrive.bench;

/**
 * A correctness check made during a run (exactly-once, stream order, attempt counts).
 *
 * @param name what was checked
 * @param passed whether it held
 * @param detail the counts behind the verdict
 */
public record Check(String name, boolean passed, String detail) {}
