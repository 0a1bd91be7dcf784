package io.redrive.workflow.replay;

import java.lang.reflect.Proxy;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/** The logger orchestration code gets: silent while the run replays, so each line logs once. */
final class ReplaySilentLogger {
  private ReplaySilentLogger() {}

  static Logger wrap(Logger delegate, BooleanSupplier replaying) {
    return (Logger)
        Proxy.newProxyInstance(
            Logger.class.getClassLoader(),
            new Class<?>[] {Logger.class},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return method.invoke(delegate, args);
              }
              if (replaying.getAsBoolean()) {
                return method.getReturnType() == boolean.class ? Boolean.FALSE : null;
              }
              return method.invoke(delegate, args);
            });
  }
}
