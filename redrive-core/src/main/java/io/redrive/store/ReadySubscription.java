package io.redrive.store;

/** A registration made by {@link Store#subscribeReady}; closing it stops the calls. */
@FunctionalInterface
public interface ReadySubscription extends AutoCloseable {
  @Override
  void close();
}
