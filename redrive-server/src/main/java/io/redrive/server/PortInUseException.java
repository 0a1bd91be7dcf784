package io.redrive.server;

/**
 * The server cannot listen because its port is taken (usually by another Redrive server). The
 * message is one line for the operator: {@code port 7070 is in use on 127.0.0.1}.
 */
public final class PortInUseException extends RuntimeException {
  private final int port;

  public PortInUseException(String bind, int port, Throwable cause) {
    super("port " + port + " is in use on " + bind + " (another Redrive server?)", cause);
    this.port = port;
  }

  /** The port that is taken. */
  public int port() {
    return port;
  }
}
