package io.redrive.server.ui;

import io.javalin.http.Context;
import io.redrive.error.NotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * The dashboard's static files, served from the server's own class path: its stylesheet and script,
 * and uPlot and htmx from their webjars (Maven dependencies), so the dashboard works offline and
 * nothing is fetched from a CDN. Only the files named here are served.
 */
final class Assets {
  private record Asset(String resource, String contentType) {}

  private final Map<String, Asset> assets;

  Assets() {
    String uplot = "META-INF/resources/webjars/uplot/" + webjarVersion("uplot") + "/dist/";
    String htmx = "META-INF/resources/webjars/htmx.org/" + webjarVersion("htmx.org") + "/dist/";
    String own = "io/redrive/server/ui/assets/";
    this.assets =
        Map.of(
            "redrive.css", new Asset(own + "redrive.css", "text/css; charset=utf-8"),
            "dashboard.js", new Asset(own + "dashboard.js", "text/javascript; charset=utf-8"),
            "uplot.css", new Asset(uplot + "uPlot.min.css", "text/css; charset=utf-8"),
            "uplot.js", new Asset(uplot + "uPlot.iife.min.js", "text/javascript; charset=utf-8"),
            "htmx.js", new Asset(htmx + "htmx.min.js", "text/javascript; charset=utf-8"),
            "favicon.svg", new Asset(own + "favicon.svg", "image/svg+xml"));
    for (Asset a : assets.values()) {
      if (Assets.class.getClassLoader().getResource(a.resource()) == null) {
        throw new IllegalStateException(
            "dashboard asset missing from the class path: " + a.resource());
      }
    }
  }

  void serve(Context ctx) {
    Asset asset = assets.get(ctx.pathParam("name"));
    if (asset == null) {
      throw new NotFoundException("ASSET_NOT_FOUND", "no dashboard asset " + ctx.pathParam("name"));
    }
    try (InputStream in = Assets.class.getClassLoader().getResourceAsStream(asset.resource())) {
      ctx.header("Cache-Control", "public, max-age=3600");
      ctx.contentType(asset.contentType()).result(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String webjarVersion(String artifact) {
    String path = "META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties";
    try (InputStream in = Assets.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("webjar missing from the class path: " + artifact);
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
