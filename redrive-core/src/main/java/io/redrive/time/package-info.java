/**
 * Time as Redrive reads and writes it: the unit form of durations. Time itself is an injected
 * {@link java.time.Clock}.
 */
package io.redrive.time;
