/**
 * Exceptions by who must react: not found, conflict (including {@code LEASE_LOST}) and store
 * failures; every one carries a stable machine code. Caller mistakes are {@link
 * java.lang.IllegalArgumentException}s that name the option and value.
 */
package io.redrive.error;
