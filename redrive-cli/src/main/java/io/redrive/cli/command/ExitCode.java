package io.redrive.cli.command;

import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import io.redrive.error.JdbcUrls;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * The exit codes of {@code redrive}, and the one place a failure becomes one (documented in
 * docs/cli.md).
 */
public enum ExitCode {
  /** Done. */
  OK(0),
  /** Anything else: a bad request the server refused (400), a local file problem. */
  FAILURE(1),
  /** The command line is wrong (unknown option, bad value, missing argument). */
  USAGE(2),
  /** A queue, message or id prefix does not exist (404). */
  NOT_FOUND(3),
  /**
   * The request conflicts with the current state (409: NOT_DEAD, QUEUE_EXISTS, AMBIGUOUS_ID...).
   */
  CONFLICT(4),
  /** The token is missing, unknown (401) or not allowed to do this (403). */
  AUTH(5),
  /** The server cannot be reached, timed out, or failed (5xx). */
  UNAVAILABLE(6),
  /** The workflow instance waited for ended FAILED or TERMINATED. */
  WORKFLOW_FAILED(7),
  /** {@code workflow replay-check} found instances the new build would break. */
  REPLAY_BREAKS(8);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The exit code for {@code failure}. */
  public static ExitCode of(Throwable failure) {
    if (failure instanceof CommandLine.ParameterException
        || failure instanceof CommandLine.TypeConversionException
        || failure instanceof IllegalArgumentException) {
      return USAGE;
    }
    if (!(failure instanceof CliException)) {
      return FAILURE;
    }
    CliException e = (CliException) failure;
    int status = e.status();
    if (status == 404) {
      return NOT_FOUND;
    }
    if (status == 409) {
      return CONFLICT;
    }
    if (status == 401 || status == 403) {
      return AUTH;
    }
    if (status >= 500) {
      return UNAVAILABLE;
    }
    if (status == 0) {
      switch (e.code()) {
        case CliException.UNREACHABLE:
        case CliException.TIMEOUT:
        case CliException.STORE_UNAVAILABLE:
          return UNAVAILABLE;
        case CliException.USAGE:
        case CliException.USAGE_CONFIG:
          return USAGE;
        default:
          return FAILURE;
      }
    }
    return FAILURE;
  }

  /**
   * Prints {@code failure} for the operator ({@code error: message (CODE)}, or {@code {"error":
   * {"code", "message"}}} with {@code --json}) and returns its exit code.
   */
  public static int report(Throwable failure, Output output) {
    return report(failure, output, false);
  }

  /**
   * As {@link #report(Throwable, Output)}; with {@code verbose} the stack trace follows the line
   * (it always does for an unexpected failure, which is a bug).
   */
  public static int report(Throwable failure, Output output, boolean verbose) {
    ExitCode exit = of(failure);
    PrintWriter err = output.err();
    // Any message may quote a JDBC url (the driver's own ones too): never print its password.
    String message =
        JdbcUrls.mask(failure.getMessage() == null ? failure.toString() : failure.getMessage());
    if (output.json()) {
      var body = io.redrive.cli.client.ApiClient.object();
      var error = body.putObject("error");
      error.put("code", jsonCode(failure, exit));
      error.put("message", message);
      if (failure instanceof CliException && ((CliException) failure).status() > 0) {
        error.put("status", ((CliException) failure).status());
      }
      err.println(body);
    } else {
      String code = code(failure);
      err.println("error: " + message + (code == null ? "" : " (" + code + ")"));
      if (verbose || (exit == FAILURE && !(failure instanceof CliException))) {
        Throwable trace =
            failure instanceof CliException && failure.getCause() != null
                ? failure.getCause()
                : failure;
        StringWriter text = new StringWriter();
        trace.printStackTrace(new PrintWriter(text));
        err.print(JdbcUrls.mask(text.toString()));
      }
    }
    err.flush();
    return exit.code;
  }

  private static String code(Throwable failure) {
    if (failure instanceof CliException) {
      String code = ((CliException) failure).code();
      return CliException.USAGE.equals(code) ? null : code;
    }
    return null;
  }

  /** The code under {@code --json}: never empty, so scripts can switch on it. */
  private static String jsonCode(Throwable failure, ExitCode exit) {
    if (failure instanceof CliException) {
      return ((CliException) failure).code();
    }
    return exit == USAGE ? CliException.USAGE : "INTERNAL";
  }

  /** Installs this mapping on a command line (for commands that throw instead of reporting). */
  public static CommandLine install(CommandLine commandLine) {
    CommandLine.IParameterExceptionHandler usage = commandLine.getParameterExceptionHandler();
    return commandLine
        .setExecutionExceptionHandler(
            (ex, cl, parsed) -> report(ex, new Output(cl.getOut(), cl.getErr(), json(parsed))))
        .setParameterExceptionHandler(
            (ex, args) -> {
              if (!java.util.Arrays.asList(args).contains("--json")) {
                return usage.handleParseException(ex, args);
              }
              CommandLine cl = ex.getCommandLine();
              return report(ex, new Output(cl.getOut(), cl.getErr(), true));
            });
  }

  private static boolean json(CommandLine.ParseResult parsed) {
    for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--json")) {
        return true;
      }
    }
    return false;
  }
}
