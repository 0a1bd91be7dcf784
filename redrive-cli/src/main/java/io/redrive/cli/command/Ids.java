package io.redrive.cli.command;

import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns message ids and id prefixes given on the command line into full ids. A full id is used as
 * given; a prefix is resolved by the server ({@code GET /v1/messages/{prefix}}): no match is
 * reported as not found, several matches fail the whole command with {@code AMBIGUOUS_ID} (exit 4)
 * before anything changes.
 */
final class Ids {
  private static final Pattern FULL =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private Ids() {}

  /** Full ids (in order, without repeats) and the arguments that matched nothing. */
  record Resolved(List<String> ids, List<String> notFound) {}

  static Resolved resolve(ApiClient client, List<String> args) {
    Set<String> ids = new LinkedHashSet<>();
    List<String> notFound = new ArrayList<>();
    for (String arg : args) {
      String id = arg.trim();
      if (FULL.matcher(id).matches()) {
        ids.add(id.toLowerCase(java.util.Locale.ROOT));
        continue;
      }
      try {
        ids.add(Fields.text(client.get("/v1/messages/" + ApiClient.segment(id)), "id"));
      } catch (CliException e) {
        if (e.status() != 404) {
          throw e;
        }
        notFound.add(id);
      }
    }
    return new Resolved(List.copyOf(ids), List.copyOf(notFound));
  }
}
