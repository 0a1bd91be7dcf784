/**
 * The store contract: one atomic intent per method, a params record per method, implemented by the
 * SQLite and PostgreSQL stores and pinned by the compliance suite in {@code redrive-testkit}.
 */
package io.redrive.store;
