/** Queues and their policies: attempts, leases, backoff, expiry, dead letters, stream policy. */
package io.redrive.queue;
