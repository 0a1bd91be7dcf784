package io.redrive.server.auth;

/** What an API call does, for authorization. */
public enum Permission {
  /** Read queues, messages, stats. */
  VIEW,
  /** Enqueue messages. */
  PRODUCE,
  /** Lease messages and settle leases (complete, fail, abandon, release, renew). */
  CONSUME,
  /** Create, update, delete, pause and resume queues; retry, redrive, drop and import messages. */
  ADMIN
}
