package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
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
        resultJson == null
            ? null
            : ApiClient.object()
                .set(
                    "result",
                    ApiClient.jsonOption(
                        "--result", resultJson, "--result '\"done\"' or '{\"charged\":1200}'"));
    JsonNode result = client.post("/v1/leases/" + ApiClient.segment(token) + "/complete", body);
    if (output.json()) {
      output.print(result);
    } else {
      output.line(Settles.describe("completed", result));
    }
    return 0;
  }
}
