/**
 * The worker runtime: a handler registry by message type, leasing with wake-ups, lease renewal,
 * timeouts, failure classification, unregistered-type backoff, stream runs with cascade release,
 * graceful shutdown and Micrometer metrics.
 *
 * <p>Public: {@link io.redrive.worker.Worker} and its builder, {@link io.redrive.worker.Handler},
 * {@link io.redrive.worker.HandlerContext}, {@link io.redrive.worker.HandlerResult}, {@link
 * io.redrive.worker.HandlerRegistration} and {@link io.redrive.worker.FailureClassifier}. Below the
 * facade, package-private and never pointing back up to it: {@code Dispatcher} starts and stops the
 * parts — {@code Poller} (leases), {@code Runner} (one slot's run and its watchdog), {@code
 * Heartbeat} (renewals), {@code Settler} (outcome to settle) with {@code SettleBatcher} (group
 * commit) — around {@code Slots}, the one owner of held leases and running runs. Each part says in
 * its class comment which threads enter it.
 */
package io.redrive.worker;
