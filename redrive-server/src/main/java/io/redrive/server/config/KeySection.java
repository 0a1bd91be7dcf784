package io.redrive.server.config;

import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Role;
import java.util.ArrayList;
import java.util.List;

/** Reads the {@code [[keys]]} tables into {@link ApiKey}s and checks them together. */
final class KeySection {
  static final List<String> FIELDS =
      List.of("name", "secret", "secretEnv", "role", "queues", "workflows");

  private KeySection() {}

  /** The keys in file order; {@code n} may be absent (no keys). */
  static List<ApiKey> read(ConfigNode n, Secrets secrets) {
    List<ApiKey> keys = new ArrayList<>();
    if (!n.present()) {
      return keys;
    }
    if (!n.isArray()) {
      throw n.error("expected an array of tables ([[keys]]), was " + n.describe());
    }
    List<ConfigNode> nodes = n.array();
    for (ConfigNode k : nodes) {
      k.requireTable().allowOnly(FIELDS);
      ConfigNode name = k.child("name");
      if (!name.present()) {
        throw name.error("is required");
      }
      String keyName = name.nonEmptyString();
      String secret = secrets.secret(k.child("secret"), k.child("secretEnv"), true);
      ConfigNode roleNode = k.child("role");
      if (!roleNode.present()) {
        throw roleNode.error("is required (admin, producer, consumer or viewer)");
      }
      Role role;
      try {
        role = Role.parse(roleNode.string());
      } catch (IllegalArgumentException e) {
        throw roleNode.error(e);
      }
      List<String> queues = List.of();
      ConfigNode queuesNode = k.child("queues");
      if (queuesNode.present()) {
        List<ConfigNode> items = queuesNode.array();
        if (items.isEmpty()) {
          throw queuesNode.error(
              "must name at least one queue or pattern (leave it out for every queue)");
        }
        List<String> patterns = new ArrayList<>();
        for (ConfigNode item : items) {
          patterns.add(item.string());
        }
        queues = List.copyOf(patterns);
      }
      List<String> workflows = List.of();
      ConfigNode workflowsNode = k.child("workflows");
      if (workflowsNode.present()) {
        List<ConfigNode> items = workflowsNode.array();
        if (items.isEmpty()) {
          throw workflowsNode.error(
              "must name at least one orchestration or pattern (leave it out for every one)");
        }
        List<String> patterns = new ArrayList<>();
        for (ConfigNode item : items) {
          patterns.add(item.string());
        }
        workflows = List.copyOf(patterns);
      }
      keys.add(new ApiKey(keyName, secret, role, queues, workflows));
    }
    try {
      KeyAuthorizer.validate(keys);
    } catch (IllegalArgumentException e) {
      throw keyError(n, nodes, e);
    }
    return keys;
  }

  /** Maps {@code keys[i].field: problem} from the key validation onto the file's paths. */
  private static ConfigException keyError(
      ConfigNode keysNode, List<ConfigNode> nodes, IllegalArgumentException e) {
    String message = e.getMessage();
    int colon = message.indexOf(": ");
    String path = colon < 0 ? keysNode.path() : message.substring(0, colon);
    String problem = colon < 0 ? message : message.substring(colon + 2);
    int close = path.indexOf(']');
    if (path.startsWith("keys[") && close > 0 && path.endsWith(".secret")) {
      int i = Integer.parseInt(path.substring(5, close));
      if (nodes.get(i).child("secretEnv").present()) {
        path = path.substring(0, path.length() - "secret".length()) + "secretEnv";
      }
    }
    return new ConfigException(keysNode.file(), path, problem, e);
  }
}
