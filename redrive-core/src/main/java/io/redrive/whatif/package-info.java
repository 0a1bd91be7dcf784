/**
 * What-if for retry policies (docs/engine.md, "What-if for retry policies"): a queue's recorded
 * stories replayed under a {@link io.redrive.whatif.RetryCandidate} by the pure {@link
 * io.redrive.whatif.PolicyWhatIf}, answered as a {@link io.redrive.whatif.WhatIfReport}. Reading
 * only: nothing is changed.
 */
package io.redrive.whatif;
