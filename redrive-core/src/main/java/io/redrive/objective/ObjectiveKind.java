package io.redrive.objective;

/** What an objective measures; spelled the same in SQL, JSON, TOML and the CLI. */
public enum ObjectiveKind {
  /**
   * Share of first leases whose wait from enqueue to the lease was within the bound ("95 % of
   * messages start within 1 minute"). Counted at lease time.
   */
  LATENCY,
  /**
   * Share of minutes in which the oldest ready message was younger than the bound ("oldest ready
   * younger than 5 minutes"). Sampled once a minute with the depth snapshot.
   */
  AGE
}
