package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.ConflictException;
import io.redrive.error.MessageNotFoundException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Operators may name a message by a unique prefix of its id. */
public abstract class IdPrefixContract extends ComplianceTestBase {

  @Test
  void resolveId_uniquePrefix_givesTheId() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    assertThat(redrive.resolveId(id)).isEqualTo(id);
    assertThat(store.findIdsByPrefix(id.substring(0, 30), 5)).containsExactly(id);
  }

  @Test
  void resolveId_sharedPrefix_isAmbiguousNamingMatches() {
    createQueue(QUEUE);
    List<String> ids = List.of(enqueue(QUEUE), enqueue(QUEUE));
    String shared = commonPrefix(ids.get(0), ids.get(1));
    assertThat(shared.length()).isGreaterThanOrEqualTo(4); // same millisecond part of UUIDv7
    assertThatThrownBy(() -> redrive.resolveId(shared))
        .isInstanceOfSatisfying(
            ConflictException.class, e -> assertThat(e.code()).isEqualTo("AMBIGUOUS_ID"))
        .hasMessageContaining(shared);
  }

  @Test
  void resolveId_noMatch_isNotFound() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    assertThatThrownBy(() -> redrive.resolveId("ffffffff"))
        .isInstanceOf(MessageNotFoundException.class);
  }

  @Test
  void resolveId_tooShortOrWildcard_isRejectedNamingTheField() {
    assertThatThrownBy(() -> redrive.resolveId("abc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("id: ");
    assertThatThrownBy(() -> redrive.resolveId("ab%c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("id: ");
  }

  private static String commonPrefix(String a, String b) {
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return a.substring(0, i);
  }
}
