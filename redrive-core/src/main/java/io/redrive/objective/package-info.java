/**
 * Queue-age objectives (docs/engine.md, "Objectives"): what a queue promises about how long its
 * messages wait ({@link io.redrive.objective.Objective}), and how well it kept that promise over
 * its window ({@link io.redrive.objective.ObjectiveStatus}, computed by the pure {@link
 * io.redrive.objective.Compliance} from per-minute counts the store keeps).
 */
package io.redrive.objective;
