/**
 * The migration contract: opening a store on the databases users have (empty, reopened, an earlier
 * Redrive's layout, application tables, an application's Flyway, operator-applied SQL) and
 * enqueueing on an application's connection. Each store module supplies a {@link
 * io.redrive.testkit.migration.MigrationFixture}.
 */
package io.redrive.testkit.migration;
