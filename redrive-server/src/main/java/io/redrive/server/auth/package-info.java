/** API keys, roles and queue scopes: who may call which endpoint on which queue. */
package io.redrive.server.auth;
