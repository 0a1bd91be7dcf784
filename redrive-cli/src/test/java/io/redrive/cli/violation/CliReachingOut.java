package io.redrive.cli.violation;

import io.redrive.server.http.HttpApi;

/** Breaks a module rule on purpose (ModuleBoundaryRulesTest shows the rule catches it). */
public final class CliReachingOut {
  Class<?> serverInternal = HttpApi.class;
}
