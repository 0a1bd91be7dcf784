package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.StoreException;
import org.junit.jupiter.api.Test;

class PostgresStoreTest {
  @Test
  void build_notAPostgresUrl_namesTheSetting() {
    assertThatThrownBy(() -> PostgresStore.builder("jdbc:mysql://localhost/x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("pgUrl: ");
  }

  @Test
  void build_unreachableServer_isTransientStoreException() {
    assertThatThrownBy(
            () -> PostgresStore.builder("jdbc:postgresql://127.0.0.1:1/none").poolSize(1).build())
        .isInstanceOfSatisfying(
            StoreException.class, e -> assertThat(e.transientFailure()).isTrue())
        .hasMessageContaining("127.0.0.1:1");
  }

  @Test
  void build_badSchemaName_namesTheSetting() {
    assertThatThrownBy(() -> PostgresStore.builder("jdbc:postgresql://h/db").schema("Bad-Name"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("schema: ");
  }

  @Test
  void connectionTimeout_outOfRange_namesTheSettingAndValue() {
    assertThatThrownBy(
            () ->
                PostgresStore.builder("jdbc:postgresql://h/db")
                    .connectionTimeout(java.time.Duration.ofMillis(100)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("connectionTimeout: ")
        .hasMessageContaining("PT0.1S");
  }
}
