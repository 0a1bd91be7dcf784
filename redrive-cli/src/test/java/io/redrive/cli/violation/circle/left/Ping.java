package io.redrive.cli.violation.circle.left;

import io.redrive.cli.violation.circle.right.Pong;

/** Test-only: imports {@link Pong}, which imports it back (an import circle across packages). */
public final class Ping {
  Pong pong;
}
