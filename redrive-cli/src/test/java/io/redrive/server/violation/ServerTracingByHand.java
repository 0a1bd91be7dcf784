package io.redrive.server.violation;

import io.opentelemetry.api.trace.Span;

/** Breaks a module rule on purpose (ModuleBoundaryRulesTest shows the rule catches it). */
public final class ServerTracingByHand {
  Class<?> span = Span.class;
}
