package io.redrive.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;

/**
 * Where and how a command prints: its standard output and error (the picocli command line's, so
 * tests can capture them) and whether the operator asked for JSON. Not thread-safe.
 */
public final class Output {
  private static final ObjectMapper PRETTY =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean json;

  public Output(PrintWriter out, PrintWriter err, boolean json) {
    this.out = out;
    this.err = err;
    this.json = json;
  }

  /** True when the command should print JSON instead of tables. */
  public boolean json() {
    return json;
  }

  public PrintWriter out() {
    return out;
  }

  public PrintWriter err() {
    return err;
  }

  /** Prints one line to standard output. */
  public void line(String text) {
    out.println(text);
    out.flush();
  }

  /** Prints a note for people to standard error, so standard output stays parseable. */
  public void note(String text) {
    err.println(text);
    err.flush();
  }

  public void table(Table table) {
    out.print(table.render());
    out.flush();
  }

  /** Prints {@code node} as indented JSON. */
  public void print(JsonNode node) {
    out.println(pretty(node));
    out.flush();
  }

  /** {@code node} as indented JSON text. */
  public static String pretty(JsonNode node) {
    try {
      return PRETTY.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a JSON tree", e);
    }
  }
}
