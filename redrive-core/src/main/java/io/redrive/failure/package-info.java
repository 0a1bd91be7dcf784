/** The failure model: reasons, categories, retryable defaults and stored failure records. */
package io.redrive.failure;
