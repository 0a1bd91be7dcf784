package io.redrive.server.violation;

import io.redrive.bench.violation.BenchStandIn;
import io.redrive.cli.RedriveCommand;
import io.redrive.engine.DeliveryRules;

/** Breaks module rules on purpose (ModuleBoundaryRulesTest shows the rules catch it). */
public final class ServerReachingOut {
  Class<?> engine = DeliveryRules.class;
  Class<?> cli = RedriveCommand.class;
  Class<?> bench = BenchStandIn.class;
}
