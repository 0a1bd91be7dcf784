package io.redrive.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;

/**
 * The settle CMD's exit code calls for (the table in {@code redrive work}'s description): 0
 * completes, with CMD's output as the result under {@code --result}; anything else fails with the
 * reason its code names and the tail of CMD's standard error.
 */
final class ExitSettle {
  static final int EX_DATAERR = 65;
  static final int EX_TEMPFAIL = 75;

  /** Bounds of what a failure carries, below the engine's limits (4096 and 8000 chars). */
  private static final int MESSAGE_TAIL = 1000;

  static final int STDERR_TAIL = 7000;

  /** Most standard output kept for {@code --result}; more is cut from the front. */
  static final int RESULT_MAX = 4 * 1024 * 1024;

  private ExitSettle() {}

  /**
   * Settles the lease of {@code token} by {@code exit} and says where the message went; true when
   * it completed.
   *
   * @param stdout CMD's standard output as the result, or null to complete without one
   * @param stderrTail the tail of CMD's standard error, for a failure
   */
  static boolean settle(
      ApiClient client, Output output, String token, int exit, String stdout, String stderrTail) {
    String path = "/v1/leases/" + ApiClient.segment(token);
    JsonNode settle;
    String verb;
    if (exit == 0) {
      settle =
          client.post(
              path + "/complete",
              stdout == null ? null : ApiClient.object().set("result", result(stdout)));
      verb = "completed";
    } else {
      ObjectNode body = ApiClient.object().put("reason", reason(exit));
      String tail = stderrTail.strip();
      String shortTail =
          tail.length() > MESSAGE_TAIL
              ? "..." + tail.substring(tail.length() - MESSAGE_TAIL)
              : tail;
      body.put("message", "exit " + exit + (shortTail.isEmpty() ? "" : ": " + shortTail));
      if (!tail.isEmpty()) {
        body.put("stackTrace", tail);
      }
      settle = client.post(path + "/fail", body);
      verb = "failed";
    }
    output.note(Settles.describe(verb, settle, exit == 0 ? "" : " (exit " + exit + ")"));
    return exit == 0;
  }

  /** CMD's output as the activity's result: JSON as written, else a JSON string. */
  static JsonNode result(String stdout) {
    String text = stdout.strip();
    try {
      JsonNode parsed = ApiClient.json().readTree(text);
      if (parsed != null && !parsed.isMissingNode()) {
        return parsed;
      }
    } catch (JsonProcessingException e) {
      // not JSON: sent as text
    }
    return TextNode.valueOf(text);
  }

  /** The failure reason for a non-zero exit code. */
  static String reason(int exit) {
    if (exit == EX_TEMPFAIL) {
      return "DEPENDENCY_FAILURE";
    }
    if (exit == EX_DATAERR) {
      return "VALIDATION_FAILURE";
    }
    return "HANDLER_EXCEPTION";
  }
}
