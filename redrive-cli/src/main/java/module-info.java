/**
 * The {@code redrive} command. Exports nothing: it is an application. Its commands are open to
 * picocli, which sets their options by reflection.
 */
module io.redrive.cli {
  requires io.redrive.server;
  requires ch.qos.logback.classic;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.toml;
  requires info.picocli;
  requires java.net.http;

  opens io.redrive.cli to
      info.picocli;
  opens io.redrive.cli.command to
      info.picocli;
}
