package io.redrive;

import java.sql.Connection;

/**
 * Finds the application's transaction in progress on the store's database, so that an enqueue joins
 * it instead of committing on its own (a framework's transaction manager, such as Spring's,
 * supplies it; {@link Redrive.Builder#callerTransactions}). With it, {@link
 * Redrive#enqueue(io.redrive.message.NewMessage)} inside such a transaction enqueues on that
 * transaction's connection: visible when it commits, gone if it rolls back; and {@link
 * Redrive#enqueue(Connection, io.redrive.message.NewMessage)} given a connection in auto-commit
 * mode (one taken from the pool beside the transaction, which would commit the message at once)
 * uses the transaction's connection too. Redrive never commits, rolls back or closes a joined
 * connection. Called on the enqueuing thread; implementations must be thread-safe.
 */
public interface CallerTransactions {
  /** None: every enqueue without a connection commits on its own (the default). */
  CallerTransactions NONE = () -> null;

  /**
   * The connection of the transaction in progress on the calling thread on the store's database, or
   * null when there is none. Each non-null answer is handed back to {@link #leave} once the enqueue
   * ran on it.
   */
  Connection join();

  /** Called once the enqueue ran on a connection {@link #join} gave (default: nothing). */
  default void leave(Connection connection) {}
}
