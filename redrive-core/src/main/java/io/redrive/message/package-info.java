/** Messages: what is enqueued, the stored view with its history, queries and ids. */
package io.redrive.message;
