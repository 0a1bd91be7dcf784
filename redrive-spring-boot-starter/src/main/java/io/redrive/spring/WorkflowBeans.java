package io.redrive.spring;

import io.redrive.workflow.Activity;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.WorkflowRegistry;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds the {@link RedriveOrchestration} and {@link RedriveActivity} beans as they are made and
 * registers them; what it found becomes the registry of {@link RedriveWorkflowRuntime}. A bean so
 * annotated that is not an orchestration (an activity), or whose type arguments cannot be read,
 * stops the application naming it.
 */
final class WorkflowBeans implements BeanPostProcessor {
  private final WorkflowRegistry.Builder registry = WorkflowRegistry.builder();
  private boolean any;

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> target = AopUtils.getTargetClass(bean);
    RedriveOrchestration orchestration =
        AnnotatedElementUtils.findMergedAnnotation(target, RedriveOrchestration.class);
    if (orchestration != null) {
      Class<?>[] types =
          typesOf(bean, target, beanName, Orchestration.class, "@RedriveOrchestration");
      addOrchestration(orchestration, types, bean);
    }
    RedriveActivity activity =
        AnnotatedElementUtils.findMergedAnnotation(target, RedriveActivity.class);
    if (activity != null) {
      Class<?>[] types = typesOf(bean, target, beanName, Activity.class, "@RedriveActivity");
      addActivity(activity, types, bean);
    }
    return bean;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private synchronized void addOrchestration(
      RedriveOrchestration a, Class<?>[] types, Object bean) {
    registry.orchestration(
        a.name(), a.version(), (Class) types[0], (Class) types[1], (Orchestration) bean);
    any = true;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private synchronized void addActivity(RedriveActivity a, Class<?>[] types, Object bean) {
    registry.activity(
        ActivityRegistration.of(a.name(), (Class) types[0], (Class) types[1], (Activity) bean));
    any = true;
  }

  /** The input and output classes of {@code bean} as an {@code kind}. */
  private static Class<?>[] typesOf(
      Object bean, Class<?> target, String beanName, Class<?> kind, String annotation) {
    if (!kind.isInstance(bean)) {
      throw new IllegalStateException(
          annotation
              + " on bean '"
              + beanName
              + "' ("
              + target.getName()
              + "): the class must implement "
              + kind.getName());
    }
    Class<?>[] types = ResolvableType.forClass(target).as(kind).resolveGenerics(null);
    if (types.length != 2 || types[0] == null || types[1] == null) {
      throw new IllegalStateException(
          annotation
              + " on bean '"
              + beanName
              + "' ("
              + target.getName()
              + "): cannot read its input and output types; implement "
              + kind.getSimpleName()
              + "<Input, Output> with concrete classes");
    }
    return types;
  }

  /** Whether any orchestration or activity was found. */
  synchronized boolean any() {
    return any;
  }

  /** The registry of what was found. */
  synchronized WorkflowRegistry registry() {
    return registry.build();
  }
}
