package io.redrive.trace;

/**
 * A trace made current on one thread by {@link HandlerTrace#activate()}; close it on that thread.
 */
@FunctionalInterface
public interface TraceScope extends AutoCloseable {

  /** Restores what was current before; never throws. */
  @Override
  void close();
}
