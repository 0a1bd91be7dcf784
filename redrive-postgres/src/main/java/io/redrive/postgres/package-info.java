/** The PostgreSQL store: many nodes on one database, SKIP LOCKED leasing, NOTIFY wake-ups. */
package io.redrive.postgres;
