package io.redrive.testkit.fault;

import io.redrive.store.Store;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.Consumer;

/**
 * A {@link Store} that tells a test each call by its method name before the real store runs it: to
 * count the calls an engine makes, or to fail some of them (what {@code before} throws, the call
 * throws instead, and the real store is not called).
 */
public final class InterceptedStore {
  private InterceptedStore() {}

  /** {@code real}, with {@code before} told the name of every method called on it first. */
  public static Store of(Store real, Consumer<String> before) {
    return (Store)
        Proxy.newProxyInstance(
            Store.class.getClassLoader(),
            new Class<?>[] {Store.class},
            (proxy, method, args) -> {
              before.accept(method.getName());
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
