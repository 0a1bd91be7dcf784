/**
 * Operator actions on dead messages: manual retry, redrive from a dead-letter queue, drop, import.
 */
package io.redrive.deadletter;
