package io.redrive.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code redrive complete}: settles a lease as done. */
@Command(
    name = "complete",
    mixinStandardHelpOptions = true,
    description = {
      "Completes a leased message (it is deleted with its history).",
      "A re-leased token exits 4 (LEASE_LOST) and changes nothing; repeating a",
      "complete within the completion window answers completed again (exit 0)."
    })
public final class CompleteCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "TOKEN", description = "The lease token.")
  String token;

  @Option(
      names = "--result",
      paramLabel = "JSON",
      description =
          "The handler's result (any JSON), kept by a workflow-owned queue for the workflow"
              + " instance that scheduled the message; a plain queue keeps none.")
  String resultJson;

  @Override
  int run(ApiClient client, Output output) {
    JsonNode body =
        resultJson == null ? null : ApiClient.object().set("result", parseResult(resultJson));
    JsonNode result = client.post("/v1/leases/" + ApiClient.segment(token) + "/complete", body);
    if (output.json()) {
      output.print(result);
    } else {
      output.line(Settles.describe("completed", result));
    }
    return 0;
  }

  private static JsonNode parseResult(String text) {
    try {
      return ApiClient.json()
          .reader()
          .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .readTree(text);
    } catch (JsonProcessingException e) {
      throw CliException.usage(
          "--result: not JSON ("
              + e.getOriginalMessage()
              + "); quote text as JSON, e.g. --result '\"done\"' or '{\"charged\":1200}'");
    }
  }
}
