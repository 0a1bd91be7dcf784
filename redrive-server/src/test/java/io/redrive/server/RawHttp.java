package io.redrive.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests java.net.http will not send: a forged {@code Host}, a
 * malformed request line, an oversized header. One request per connection.
 */
final class RawHttp {
  private RawHttp() {}

  /** An answer: status, headers (lower-case names) and body. */
  record Answer(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    JsonNode json() {
      try {
        return HttpApiClient.JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String code() {
      return json().path("error").path("code").asText(null);
    }

    @Override
    public String toString() {
      return status + " " + headers + " " + body;
    }
  }

  /** Sends {@code head} (request line and headers, CRLF-separated, no blank line) and a body. */
  static Answer send(int port, String head, String body) {
    return sendFrom(null, port, head, body);
  }

  /**
   * Sends as {@link #send} from the local address {@code from} (another loopback address such as
   * 127.0.0.2 is another client to the server), or the default address when null.
   */
  static Answer sendFrom(String from, int port, String head, String body) {
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    StringBuilder request = new StringBuilder(head);
    if (body != null) {
      request.append("\r\nContent-Length: ").append(bytes.length);
    }
    request.append("\r\nConnection: close\r\n\r\n");
    try (Socket socket = new Socket()) {
      if (from != null) {
        socket.bind(new InetSocketAddress(from, 0));
      }
      socket.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(bytes);
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      return parse(all.toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Answer parse(String text) {
    int end = text.indexOf("\r\n\r\n");
    String head = end < 0 ? text : text.substring(0, end);
    String body = end < 0 ? "" : text.substring(end + 4);
    String[] lines = head.split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
    }
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = unchunk(body);
    }
    return new Answer(status, headers, body);
  }

  private static String unchunk(String body) {
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (at < body.length()) {
      int eol = body.indexOf("\r\n", at);
      int size = Integer.parseInt(body.substring(at, eol).trim(), 16);
      if (size == 0) {
        break;
      }
      out.append(body, eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    return out.toString();
  }
}
