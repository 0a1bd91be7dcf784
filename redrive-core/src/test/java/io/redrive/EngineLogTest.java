package io.redrive;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.conditions.ArchPredicates.are;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The engine logs under the one name docs/engine.md gives, so logging configurations keep working,
 * and the classes beside the facade log through {@link EngineLog}, never by naming {@link Redrive}.
 */
class EngineLogTest {
  @Test
  void theLoggerNameIsTheDocumentedOne() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "engine.md"));
    assertThat(doc).contains("logger `" + EngineLog.NAME + "`");
    assertThat(EngineLog.NAME).isEqualTo(Redrive.class.getName());
  }

  @Test
  void nothingBesideTheFacadeDependsOnIt() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.redrive");
    DescribedPredicate<JavaClass> facade = belongToAnyOf(Redrive.class);
    noClasses()
        .that()
        .resideInAPackage("io.redrive")
        .and(DescribedPredicate.not(facade))
        .should()
        .dependOnClassesThat(are(facade))
        .because("the engine's machinery sits below its facade and logs through EngineLog")
        .check(classes);
  }
}
