/** The SQLite store: Redrive's zero-set-up embedded default, one file, one writer at a time. */
package io.redrive.sqlite;
