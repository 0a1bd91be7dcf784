package io.redrive.server.auth;

import java.util.List;

/**
 * One API key.
 *
 * @param name a label for logs and errors (the secret is never shown)
 * @param secret the bearer token clients send
 * @param role what it may do
 * @param queues queue names or glob patterns ({@code orders.*}) it is limited to; empty for all
 * @param workflows orchestration names or glob patterns ({@code order*}) it is limited to; empty
 *     for all
 */
public record ApiKey(
    String name, String secret, Role role, List<String> queues, List<String> workflows) {
  /** A key with access to every orchestration. */
  public ApiKey(String name, String secret, Role role, List<String> queues) {
    this(name, secret, role, queues, List.of());
  }

  @Override
  public String toString() {
    return "ApiKey[name="
        + name
        + ", role="
        + role
        + ", queues="
        + queues
        + ", workflows="
        + workflows
        + "]";
  }
}
