/** Leases and settling: lease requests, leased messages, tokens and the settle requests. */
package io.redrive.lease;
