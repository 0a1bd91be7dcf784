package io.redrive.workflow.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.history.InboxMessage.LocalCrash;
import java.util.List;

/**
 * One try of a local activity a turn is to run: its command and the crashes already charged to it
 * (each a failed attempt, so this try is attempt {@code crashes.size() + 1}). Plain data.
 *
 * @param seq the command's sequence number
 * @param name the activity
 * @param retryNumber the retry policy's retry this try belongs to
 * @param input its input
 * @param timeoutMs the call's timeout, or null for the registration's
 * @param crashes nodes that died running it, oldest first
 */
record LocalRun(
    long seq,
    String name,
    int retryNumber,
    JsonNode input,
    Long timeoutMs,
    List<LocalCrash> crashes) {
  LocalRun {
    crashes = List.copyOf(crashes);
  }

  String key() {
    return key(seq, retryNumber);
  }

  static String key(long seq, int retryNumber) {
    return seq + ":" + retryNumber;
  }
}
