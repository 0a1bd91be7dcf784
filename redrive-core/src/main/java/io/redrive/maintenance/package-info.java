/**
 * Background maintenance of a store: the deadline sweep that dead-letters messages past their
 * {@code expireAt} as EXPIRED without waiting for a lease to pass by. The server runs it; an
 * embedding application or a worker can start it.
 */
package io.redrive.maintenance;
