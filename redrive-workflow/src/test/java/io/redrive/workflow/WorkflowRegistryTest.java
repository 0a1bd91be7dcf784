package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.failure.FailureReason;
import io.redrive.worker.FailureClassifier;
import java.lang.reflect.ParameterizedType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowRegistryTest {
  private static final Orchestration<String, String> ECHO = (ctx, in) -> "echo:" + in;
  private static final Activity<String, Integer> LENGTH = (ctx, in) -> in.length();

  private static WorkflowRegistry.Builder withVersions(String name, String... versions) {
    WorkflowRegistry.Builder b = WorkflowRegistry.builder();
    for (String v : versions) {
      b.orchestration(name, v, String.class, String.class, ECHO);
    }
    return b;
  }

  @Test
  void orchestration_registered_isFoundWithItsTypesAndCode() throws Exception {
    WorkflowRegistry r = withVersions("order", "1.0.0").build();

    OrchestrationDefinition d = r.orchestration("order", "1.0.0").orElseThrow();

    assertThat(d.name()).isEqualTo("order");
    assertThat(d.version()).isEqualTo("1.0.0");
    assertThat(d.inputType()).isEqualTo(String.class);
    assertThat(d.outputType()).isEqualTo(String.class);
    assertThat(d.code().run(null, "x")).isEqualTo("echo:x");
  }

  @Test
  void orchestration_unknownNameOrVersion_isEmpty() {
    WorkflowRegistry r = withVersions("order", "1.0.0").build();

    assertThat(r.orchestration("order", "1.0.1")).isEmpty();
    assertThat(r.orchestration("invoice", "1.0.0")).isEmpty();
    assertThat(r.orchestration(null, "1.0.0")).isEmpty();
    assertThat(r.orchestration("order", null)).isEmpty();
  }

  @Test
  void orchestration_typeReference_keepsTheGenericType() {
    WorkflowRegistry r =
        WorkflowRegistry.builder()
            .orchestration(
                "batch",
                "1.0.0",
                new TypeReference<List<String>>() {},
                new TypeReference<Map<String, Integer>>() {},
                (ctx, in) -> Map.of("n", in.size()))
            .build();

    OrchestrationDefinition d = r.orchestration("batch", "1.0.0").orElseThrow();

    assertThat(d.inputType()).isInstanceOf(ParameterizedType.class);
    assertThat(d.inputType().getTypeName()).isEqualTo("java.util.List<java.lang.String>");
    assertThat(d.outputType().getTypeName())
        .isEqualTo("java.util.Map<java.lang.String, java.lang.Integer>");
  }

  @Test
  void defaultVersion_noneGiven_isTheHighestBySemverNotByText() {
    WorkflowRegistry r = withVersions("order", "1.9.0", "1.10.0", "1.2.0").build();

    assertThat(r.defaultVersion("order")).contains("1.10.0");
  }

  @Test
  void defaultVersion_given_winsOverTheHighest() {
    WorkflowRegistry r =
        withVersions("order", "1.0.0", "2.0.0").defaultVersion("order", "1.0.0").build();

    assertThat(r.defaultVersion("order")).contains("1.0.0");
  }

  @Test
  void defaultVersion_givenBeforeTheVersionIsRegistered_isAccepted() {
    WorkflowRegistry r =
        WorkflowRegistry.builder()
            .defaultVersion("order", "1.0.0")
            .orchestration("order", "1.0.0", String.class, String.class, ECHO)
            .orchestration("order", "2.0.0", String.class, String.class, ECHO)
            .build();

    assertThat(r.defaultVersion("order")).contains("1.0.0");
  }

  @Test
  void defaultVersion_unknownName_isEmpty() {
    assertThat(withVersions("order", "1.0.0").build().defaultVersion("invoice")).isEmpty();
    assertThat(withVersions("order", "1.0.0").build().defaultVersion(null)).isEmpty();
  }

  @Test
  void build_defaultVersionOfUnregisteredName_isRejectedNamingIt() {
    WorkflowRegistry.Builder b = withVersions("order", "1.0.0").defaultVersion("invoice", "1.0.0");

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("defaultVersion: orchestration \"invoice\" is not registered");
  }

  @Test
  void build_defaultVersionOfUnregisteredVersion_isRejectedListingTheRegistered() {
    WorkflowRegistry.Builder b =
        withVersions("order", "1.0.0", "1.1.0").defaultVersion("order", "3.0.0");

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("defaultVersion: order@3.0.0 is not registered (registered: 1.0.0, 1.1.0)");
  }

  @Test
  void defaultVersion_givenTwiceDifferently_isRejectedNamingBoth() {
    WorkflowRegistry.Builder b = WorkflowRegistry.builder().defaultVersion("order", "1.0.0");

    assertThatThrownBy(() -> b.defaultVersion("order", "2.0.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("defaultVersion: \"order\" already defaults to 1.0.0, was given 2.0.0");
    b.defaultVersion("order", "1.0.0");
  }

  @Test
  void defaultVersion_notSemver_isRejected() {
    assertThatThrownBy(() -> WorkflowRegistry.builder().defaultVersion("order", "latest"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version: \"latest\" is not MAJOR.MINOR.PATCH");
  }

  @Test
  void orchestration_duplicateNameAndVersion_isRejectedNamingIt() {
    assertThatThrownBy(() -> withVersions("order", "1.0.0", "1.0.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("orchestration: order@1.0.0 is already registered");
  }

  @Test
  void orchestration_versionNotSemver_isRejectedNamingVersionAndOrchestration() {
    assertThatThrownBy(() -> withVersions("order", "1.2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version: \"1.2\" is not MAJOR.MINOR.PATCH (orchestration \"order\")");
  }

  @Test
  void orchestration_nameWithAt_isRejected() {
    assertThatThrownBy(() -> withVersions("order@1", "1.0.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("orchestration name: must not contain '@', was \"order@1\"");
  }

  @Test
  void orchestration_badNames_areRejectedNamingTheProblem() {
    assertThatThrownBy(() -> withVersions("", "1.0.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("orchestration name: must not be blank, was \"\"");
    assertThatThrownBy(() -> withVersions(null, "1.0.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("orchestration name: is required, was null");
    assertThatThrownBy(() -> withVersions("o".repeat(201), "1.0.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("orchestration name: must be at most 200 characters, was 201");
    assertThatThrownBy(() -> withVersions("ord\ter", "1.0.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "orchestration name: must not contain control characters, was \"ord\\u0009er\"");
  }

  @Test
  void orchestration_nullCodeOrType_isRejected() {
    assertThatThrownBy(
            () ->
                WorkflowRegistry.builder()
                    .orchestration("order", "1.0.0", String.class, String.class, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("code: is required for order@1.0.0");
    assertThatThrownBy(
            () ->
                WorkflowRegistry.builder()
                    .orchestration("order", "1.0.0", null, String.class, ECHO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inputType: is required for order@1.0.0");
  }

  @Test
  void versions_severalRegistered_ascendingBySemver() {
    WorkflowRegistry r = withVersions("order", "1.10.0", "0.9.0", "1.9.0", "1.9.10").build();

    assertThat(r.versions("order")).containsExactly("0.9.0", "1.9.0", "1.9.10", "1.10.0");
    assertThat(r.versions("invoice")).isEmpty();
  }

  @Test
  void orchestrationNames_severalRegistered_eachOnceSorted() {
    WorkflowRegistry r =
        withVersions("shipping", "1.0.0", "2.0.0")
            .orchestration("order", "1.0.0", String.class, String.class, ECHO)
            .build();

    assertThat(r.orchestrationNames()).containsExactly("order", "shipping");
  }

  @Test
  void activity_registered_isFoundWithDefaults() throws Exception {
    WorkflowRegistry r =
        WorkflowRegistry.builder().activity("length", String.class, Integer.class, LENGTH).build();

    ActivityRegistration a = r.activity("length").orElseThrow();

    assertThat(a.name()).isEqualTo("length");
    assertThat(a.inputType()).isEqualTo(String.class);
    assertThat(a.outputType()).isEqualTo(Integer.class);
    assertThat(a.queue()).isEqualTo(WorkflowDefaults.ACTIVITY_QUEUE);
    assertThat(a.timeout()).isNull();
    assertThat(a.classifier()).isNull();
    assertThat(a.code().run(null, "abcd")).isEqualTo(4);
    assertThat(r.activity("width")).isEmpty();
    assertThat(r.activity(null)).isEmpty();
    assertThat(r.activityNames()).containsExactly("length");
  }

  @Test
  void activity_duplicateName_isRejectedNamingIt() {
    WorkflowRegistry.Builder b =
        WorkflowRegistry.builder().activity("length", String.class, Integer.class, LENGTH);

    assertThatThrownBy(
            () ->
                b.activity(
                    ActivityRegistration.of("length", String.class, Integer.class, LENGTH)
                        .withQueue("wf.other")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("activity: \"length\" is already registered");
  }

  @Test
  void activity_nullRegistration_isRejected() {
    assertThatThrownBy(() -> WorkflowRegistry.builder().activity(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("activity: registration is required, was null");
  }

  @Test
  void activityQueues_noActivities_stillHasTheDefaultQueue() {
    assertThat(WorkflowRegistry.builder().build().activityQueues())
        .containsExactly(WorkflowDefaults.ACTIVITY_QUEUE);
  }

  @Test
  void activityQueues_activitiesOnOwnQueues_listsEachOnceWithTheDefault() {
    WorkflowRegistry r =
        WorkflowRegistry.builder()
            .activity("length", String.class, Integer.class, LENGTH)
            .activity(
                ActivityRegistration.of("charge", String.class, Integer.class, LENGTH)
                    .withQueue("wf.payments"))
            .activity(
                ActivityRegistration.of("refund", String.class, Integer.class, LENGTH)
                    .withQueue("wf.payments"))
            .build();

    assertThat(r.activityQueues()).containsExactly("wf.activities", "wf.payments");
  }

  @Test
  void registration_withers_changeOneFieldAndLeaveTheOriginal() {
    FailureClassifier classifier = error -> FailureReason.VALIDATION_FAILURE;
    ActivityRegistration base =
        ActivityRegistration.of("charge", String.class, Integer.class, LENGTH);

    ActivityRegistration changed =
        base.withTimeout(Duration.ofSeconds(30))
            .withQueue("wf.payments")
            .withClassifier(classifier);

    assertThat(changed.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(changed.queue()).isEqualTo("wf.payments");
    assertThat(changed.classifier()).isSameAs(classifier);
    assertThat(changed.withQueue(null).queue()).isEqualTo(WorkflowDefaults.ACTIVITY_QUEUE);
    assertThat(base.timeout()).isNull();
    assertThat(base.queue()).isEqualTo(WorkflowDefaults.ACTIVITY_QUEUE);
  }

  @Test
  void registration_typeReference_keepsTheGenericType() {
    ActivityRegistration a =
        ActivityRegistration.of(
            "sum",
            new TypeReference<List<Integer>>() {},
            new TypeReference<Integer>() {},
            (ctx, in) -> in.stream().mapToInt(Integer::intValue).sum());

    assertThat(a.inputType().getTypeName()).isEqualTo("java.util.List<java.lang.Integer>");
    assertThat(a.outputType()).isEqualTo(Integer.class);
  }

  @Test
  void registration_badValues_areRejectedNamingTheOption() {
    assertThatThrownBy(() -> ActivityRegistration.of(" ", String.class, Integer.class, LENGTH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("activity name: must not be blank, was \" \"");
    assertThatThrownBy(() -> ActivityRegistration.of("charge", null, Integer.class, LENGTH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inputType: is required for activity \"charge\"");
    assertThatThrownBy(() -> ActivityRegistration.of("charge", String.class, Integer.class, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("code: is required for activity \"charge\"");
    ActivityRegistration ok =
        ActivityRegistration.of("charge", String.class, Integer.class, LENGTH);
    assertThatThrownBy(() -> ok.withTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timeout: must be positive for activity \"charge\", was PT0S");
    assertThatThrownBy(() -> ok.withQueue("no spaces"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("queue: invalid queue name \"no spaces\"");
  }

  @Test
  void build_builderChangedAfterwards_registryUnchanged() {
    WorkflowRegistry.Builder b = withVersions("order", "1.0.0");
    WorkflowRegistry first = b.build();

    b.orchestration("order", "2.0.0", String.class, String.class, ECHO)
        .activity("length", String.class, Integer.class, LENGTH);

    assertThat(first.versions("order")).containsExactly("1.0.0");
    assertThat(first.defaultVersion("order")).contains("1.0.0");
    assertThat(first.activity("length")).isEmpty();
    assertThat(b.build().defaultVersion("order")).contains("2.0.0");
  }

  @Test
  void lookups_returnedCollections_areUnmodifiable() {
    WorkflowRegistry r = withVersions("order", "1.0.0").build();

    assertThatThrownBy(() -> r.orchestrationNames().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> r.versions("order").add("2.0.0"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> r.activityQueues().add("q"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void toString_listsNameAtVersionAndActivities() {
    WorkflowRegistry r =
        withVersions("order", "1.10.0", "1.9.0")
            .activity("length", String.class, Integer.class, LENGTH)
            .build();

    assertThat(r)
        .hasToString(
            "WorkflowRegistry[orchestrations=[order@1.9.0, order@1.10.0] activities=[length]]");
  }

  @Test
  void orchestrationsOf_copiesEveryVersionAndTheDefaults_activitiesStayOut() {
    WorkflowRegistry user =
        WorkflowRegistry.builder()
            .orchestration("order", "1.0.0", String.class, String.class, (ctx, in) -> "v1")
            .orchestration("order", "2.0.0", String.class, String.class, (ctx, in) -> "v2")
            .defaultVersion("order", "1.0.0")
            .activity("charge", String.class, String.class, (ctx, in) -> in)
            .build();

    WorkflowRegistry copy = WorkflowRegistry.builder().orchestrationsOf(user).build();

    assertThat(copy.hasOrchestration("order", "1.0.0")).isTrue();
    assertThat(copy.hasOrchestration("order", "2.0.0")).isTrue();
    assertThat(copy.defaultVersion("order")).contains("1.0.0");
    assertThat(copy.activity("charge")).isEmpty();
    assertThatThrownBy(
            () -> WorkflowRegistry.builder().orchestrationsOf(user).orchestrationsOf(user))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is already registered");
  }
}
