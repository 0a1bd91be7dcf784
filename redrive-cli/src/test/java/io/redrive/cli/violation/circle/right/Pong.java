package io.redrive.cli.violation.circle.right;

import io.redrive.cli.violation.circle.left.Ping;

/** Test-only: imports {@link Ping}, which imports it back (an import circle across packages). */
public final class Pong {
  Ping ping;
}
