package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SemverTest {
  @Test
  void parse_threeNumbers_keepsEachPart() {
    Semver v = Semver.parse("12.0.345");

    assertThat(v.major()).isEqualTo(12);
    assertThat(v.minor()).isZero();
    assertThat(v.patch()).isEqualTo(345);
    assertThat(v).hasToString("12.0.345");
  }

  @Test
  void parse_largestInt_isAccepted() {
    assertThat(Semver.parse("2147483647.0.0").major()).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void parse_twoParts_namesFieldAndValue() {
    assertThatThrownBy(() -> Semver.parse("1.2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version: \"1.2\" is not MAJOR.MINOR.PATCH");
  }

  @Test
  void parse_givenField_namesThatField() {
    assertThatThrownBy(() -> Semver.parse("defaultVersion", "latest"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("defaultVersion: \"latest\" is not MAJOR.MINOR.PATCH");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "1",
        "1.2.3.4",
        "1..3",
        "1.2.",
        ".1.2",
        "+1.2.3",
        "-1.2.3",
        "1.-2.3",
        "1.2.3-beta",
        "1.2.3+build",
        "v1.2.3",
        " 1.2.3",
        "1.2.3 ",
        "1.2.x",
        "١.2.3"
      })
  void parse_notMajorMinorPatch_isRejected(String text) {
    assertThatThrownBy(() -> Semver.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version: \"" + text + "\" is not MAJOR.MINOR.PATCH");
  }

  @Test
  void parse_partPastIntRange_isRejected() {
    assertThatThrownBy(() -> Semver.parse("1.2147483648.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version: \"1.2147483648.0\" has a part larger than 2147483647");
  }

  @Test
  void parse_leadingZero_isRejected() {
    assertThatThrownBy(() -> Semver.parse("1.02.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version: \"1.02.0\" has a leading zero in \"02\"");
  }

  @Test
  void parse_null_isRejected() {
    assertThatThrownBy(() -> Semver.parse(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version: is required, was null");
  }

  @Test
  void compareTo_numericParts_ordersNumericallyNotAsText() {
    assertThat(Semver.parse("1.10.0")).isGreaterThan(Semver.parse("1.9.0"));
    assertThat(Semver.parse("2.0.0")).isGreaterThan(Semver.parse("1.99.99"));
    assertThat(Semver.parse("1.0.10")).isGreaterThan(Semver.parse("1.0.9"));
    assertThat(Semver.parse("1.2.3")).isEqualByComparingTo(Semver.parse("1.2.3"));
  }

  @Test
  void sort_mixedVersions_ascending() {
    List<Semver> versions = new ArrayList<>();
    for (String v : List.of("1.10.0", "0.0.1", "1.9.0", "10.0.0", "1.9.10", "1.9.2")) {
      versions.add(Semver.parse(v));
    }
    Collections.sort(versions);

    assertThat(versions)
        .extracting(Semver::toString)
        .containsExactly("0.0.1", "1.9.0", "1.9.2", "1.9.10", "1.10.0", "10.0.0");
  }

  @Test
  void equals_sameParts_equalWithSameHash() {
    assertThat(Semver.parse("3.1.4")).isEqualTo(Semver.parse("3.1.4"));
    assertThat(Semver.parse("3.1.4")).hasSameHashCodeAs(Semver.parse("3.1.4"));
    assertThat(Semver.parse("3.1.4")).isNotEqualTo(Semver.parse("3.1.5"));
  }
}
