package io.redrive.bench.scenario;

import io.redrive.bench.contender.Target;
import java.util.List;

/** A benchmark scenario: its description and its cells on one target. */
public interface Scenario {

  /** The name used on the command line and in the JSON ({@code enqueue}, {@code drain}, ...). */
  String name();

  /** The heading of its table. */
  String title();

  /** One paragraph on what runs and what the baseline is. */
  String about();

  /** Its cells on {@code target}, in table order. */
  List<Cell> cells(Target target);
}
