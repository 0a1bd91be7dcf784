/**
 * The worker runtime: a handler registry by message type, leasing with wake-ups, lease renewal,
 * timeouts, failure classification, unregistered-type backoff, stream runs with cascade release,
 * graceful shutdown and Micrometer metrics.
 */
package io.redrive.worker;
