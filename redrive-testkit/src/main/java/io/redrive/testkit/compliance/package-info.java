/**
 * The store compliance suite: one abstract {@code *Contract} class per concern, each pinning the
 * semantics of ARCHITECTURE.md against a real store. A store module runs the suite by subclassing
 * every contract with a class that only names its {@link io.redrive.testkit.StoreFixture}, and
 * checks its coverage against {@link io.redrive.testkit.compliance.ComplianceContracts#all()}.
 */
package io.redrive.testkit.compliance;
