package io.redrive.cli.client;

/**
 * A command failed: the server answered with an error ({@link #status()} is its HTTP status and
 * {@link #code()} its error code, as in docs/api.md), the server could not be reached ({@code
 * status} 0, code {@link #UNREACHABLE} or {@link #TIMEOUT}), or the command refused its input
 * locally ({@code status} 0). The message is meant for the operator and never contains the token.
 */
public final class CliException extends RuntimeException {
  /** No connection to the server. */
  public static final String UNREACHABLE = "UNREACHABLE";

  /** The server did not answer in time. */
  public static final String TIMEOUT = "TIMEOUT";

  /** The server command cannot reach its database (exit code 6). */
  public static final String STORE_UNAVAILABLE = "STORE_UNAVAILABLE";

  /** The server's config file is invalid (exit code 2, like a bad flag). */
  public static final String USAGE_CONFIG = "CONFIG";

  /** The command's arguments do not make sense together (exit code 2). */
  public static final String USAGE = "USAGE";

  private final int status;
  private final String code;

  public CliException(int status, String code, String message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  public CliException(int status, String code, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.code = code;
  }

  /** A local refusal of the command line as given (exit code 2). */
  public static CliException usage(String message) {
    return new CliException(0, USAGE, message);
  }

  /** A local failure, e.g. an unreadable file (exit code 1). */
  public static CliException local(String code, String message) {
    return new CliException(0, code, message);
  }

  /** The HTTP status of the server's answer, or 0 when there was none. */
  public int status() {
    return status;
  }

  /** The error code: the server's ({@code QUEUE_NOT_FOUND}) or a local one ({@code USAGE}). */
  public String code() {
    return code;
  }
}
