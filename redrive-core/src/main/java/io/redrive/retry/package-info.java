/** Backoff policies: how long a failed message waits before its next delivery. */
package io.redrive.retry;
