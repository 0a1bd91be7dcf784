/**
 * The HTTP JSON API: routes, request/response mapping and the one place errors become responses.
 */
package io.redrive.server.http;
