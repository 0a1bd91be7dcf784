package io.redrive.server.ui;

/**
 * An error as the dashboard shows it: the HTTP status, the API's error code and its message (the
 * same words the JSON API would answer with).
 *
 * @param status the HTTP status
 * @param code the API error code, e.g. {@code QUEUE_NOT_FOUND}
 * @param message what went wrong, naming the problem
 */
public record UiFailure(int status, String code, String message) {}
