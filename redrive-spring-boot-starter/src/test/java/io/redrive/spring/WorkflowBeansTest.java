package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.workflow.Activity;
import io.redrive.workflow.ActivityContext;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.OrchestrationContext;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Orchestration and activity beans run in a workflow runtime the starter starts and stops with the
 * context; without any, no runtime runs; a misdeclared one stops the application.
 */
class WorkflowBeansTest {
  @TempDir Path dir;

  /** Greets by calling an activity. */
  @RedriveOrchestration(name = "greet")
  static class Greet implements Orchestration<String, String> {
    @Override
    public String run(OrchestrationContext ctx, String name) throws Exception {
      return ctx.callActivity("shout", name, String.class).await();
    }
  }

  /** Upper-cases its input. */
  @RedriveActivity(name = "shout")
  static class Shout implements Activity<String, String> {
    @Override
    public String run(ActivityContext ctx, String input) {
      return input.toUpperCase(java.util.Locale.ROOT) + "!";
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class GreetConfig {
    @Bean
    Greet greet() {
      return new Greet();
    }

    @Bean
    Shout shout() {
      return new Shout();
    }
  }

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  @Test
  void orchestrationAndActivityBeans_runToTheirResult() {
    runner()
        .withUserConfiguration(GreetConfig.class)
        .run(
            context -> {
              assertThat(context.getBean(RedriveWorkflowRuntime.class).isRunning()).isTrue();
              WorkflowClient client = context.getBean(WorkflowClient.class);
              client.start(StartRequest.of("greet", "ann").withInstanceId("g-1"));
              InstanceInfo done = client.await("g-1", Duration.ofSeconds(30));
              assertThat(done.status()).isEqualTo(InstanceStatus.COMPLETED);
              assertThat(done.output()).isEqualTo("\"ANN!\"");
            });
  }

  @Test
  void noOrchestrationsNorActivities_noRuntime() {
    runner()
        .run(
            context ->
                assertThat(context.getBean(RedriveWorkflowRuntime.class).isRunning()).isFalse());
  }

  /** Annotated, but not an orchestration. */
  @RedriveOrchestration(name = "wrong")
  static class NotAnOrchestration {}

  @Configuration(proxyBeanMethods = false)
  static class WrongConfig {
    @Bean
    NotAnOrchestration wrong() {
      return new NotAnOrchestration();
    }
  }

  @Test
  void anAnnotatedBeanThatIsNoOrchestration_stopsTheApplication() {
    runner()
        .withUserConfiguration(WrongConfig.class)
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessageContaining("@RedriveOrchestration on bean 'wrong'")
                    .hasMessageContaining("must implement io.redrive.workflow.Orchestration"));
  }
}
