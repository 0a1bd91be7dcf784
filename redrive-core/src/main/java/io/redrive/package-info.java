/**
 * Redrive's public entry point: {@link io.redrive.Redrive}, the engine over one store. Failure
 * handling is the point: every delivery is counted, poison is caught at fetch, dead messages keep
 * their story.
 */
package io.redrive;
