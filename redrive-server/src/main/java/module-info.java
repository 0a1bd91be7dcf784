/**
 * The HTTP server: {@link io.redrive.server.RedriveServer} with its config and authorisation,
 * embeddable and run by the {@code redrive server} command. {@code io.redrive.server.http} (routes,
 * request and response records) is internal, open to Jackson only, which reads and writes its
 * records by reflection.
 */
module io.redrive.server {
  requires transitive io.redrive;
  requires transitive io.redrive.sqlite;
  requires transitive io.redrive.postgres;
  requires transitive io.redrive.workflow;
  requires io.redrive.opentelemetry;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.toml;
  requires com.fasterxml.jackson.datatype.jsr310;
  requires io.javalin;
  requires micrometer.registry.prometheus;
  requires org.slf4j;
  requires gg.jte.runtime;
  requires static java.compiler; // @Generated on the compiled templates (source retention)

  exports io.redrive.server;
  exports io.redrive.server.auth;
  exports io.redrive.server.config;

  // The dashboard's compiled templates are called by jte's runtime.
  exports io.redrive.server.ui.templates to
      gg.jte.runtime;

  opens io.redrive.server.http to
      com.fasterxml.jackson.databind;
  opens io.redrive.server.config to
      com.fasterxml.jackson.databind;
}
