/** The Redrive server: the engine over an HTTP JSON API, with metrics and declarative config. */
package io.redrive.server;
