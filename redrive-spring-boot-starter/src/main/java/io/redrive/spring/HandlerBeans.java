package io.redrive.spring;

import io.redrive.worker.Handler;
import io.redrive.worker.HandlerContext;
import io.redrive.worker.HandlerResult;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds the {@link RedriveHandler} beans and methods of the application as its beans are made, and
 * keeps them by queue for {@link RedriveWorkers}. Two handlers of one type in one queue stop the
 * application, naming both.
 */
final class HandlerBeans implements BeanPostProcessor {
  /** One handler found: its queue, its type, what runs it, and where it came from. */
  record Found(String queue, String type, Handler handler, String source) {}

  private final Map<String, Found> byQueueAndType = new LinkedHashMap<>();

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> target = AopUtils.getTargetClass(bean);
    RedriveHandler onType =
        AnnotatedElementUtils.findMergedAnnotation(target, RedriveHandler.class);
    if (onType != null) {
      if (!(bean instanceof Handler handler)) {
        throw new IllegalStateException(
            "@RedriveHandler on bean '"
                + beanName
                + "' ("
                + target.getName()
                + "): a class annotated so must implement io.redrive.worker.Handler;"
                + " otherwise annotate its handler method");
      }
      add(new Found(onType.queue(), onType.type(), handler, "bean '" + beanName + "'"));
    }
    Map<Method, RedriveHandler> methods =
        MethodIntrospector.selectMethods(
            target,
            (MethodIntrospector.MetadataLookup<RedriveHandler>)
                m -> AnnotatedElementUtils.findMergedAnnotation(m, RedriveHandler.class));
    methods.forEach(
        (method, annotation) -> {
          String source =
              "method " + target.getName() + "." + method.getName() + " of bean '" + beanName + "'";
          add(
              new Found(
                  annotation.queue(), annotation.type(), invoking(bean, method, source), source));
        });
    return bean;
  }

  private synchronized void add(Found found) {
    String key = found.queue() + '\u0000' + found.type();
    Found earlier = byQueueAndType.putIfAbsent(key, found);
    if (earlier != null && earlier != found) {
      throw new IllegalStateException(
          "@RedriveHandler: type '"
              + found.type()
              + "' of queue '"
              + found.queue()
              + "' has two handlers: "
              + earlier.source()
              + " and "
              + found.source());
    }
  }

  /** The handlers found, by queue, in the order found. */
  synchronized Map<String, List<Found>> byQueue() {
    Map<String, List<Found>> out = new LinkedHashMap<>();
    for (Found f : byQueueAndType.values()) {
      out.computeIfAbsent(f.queue(), q -> new ArrayList<>()).add(f);
    }
    return out;
  }

  /** A handler that calls {@code method} on {@code bean}; its signature is checked here, once. */
  private static Handler invoking(Object bean, Method method, String source) {
    Class<?>[] params = method.getParameterTypes();
    boolean takesContext = params.length == 1 && params[0] == HandlerContext.class;
    boolean takesPayload = params.length == 1 && params[0] == String.class;
    if (!(params.length == 0 || takesContext || takesPayload)) {
      throw new IllegalStateException(
          "@RedriveHandler "
              + source
              + ": takes a HandlerContext, the payload as a String, or nothing; found "
              + params.length
              + " parameter(s)");
    }
    Class<?> returns = method.getReturnType();
    if (returns != void.class && returns != HandlerResult.class) {
      throw new IllegalStateException(
          "@RedriveHandler " + source + ": returns HandlerResult or nothing; found " + returns);
    }
    // Through the bean (a proxy when it has advice, e.g. @Transactional), not its target class.
    Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
    invocable.setAccessible(true);
    return context -> {
      Object[] args =
          takesContext
              ? new Object[] {context}
              : takesPayload ? new Object[] {context.payload()} : new Object[0];
      Object result;
      try {
        result = invocable.invoke(bean, args);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Exception ex) {
          throw ex;
        }
        throw (Error) cause;
      }
      return result == null ? HandlerResult.complete() : (HandlerResult) result;
    };
  }
}
