package io.redrive.server.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Jetty's own error answers (a 503 while the server stops, a request Jetty refuses before it
 * reaches the API) in the API's one error shape instead of an HTML page, so a client never has to
 * parse two kinds of error.
 */
final class JsonErrorHandler extends ErrorHandler {
  private final JsonCodec json;

  JsonErrorHandler(JsonCodec json) {
    this.json = json;
  }

  @Override
  protected void generateAcceptableResponse(
      Request baseRequest,
      HttpServletRequest request,
      HttpServletResponse response,
      int code,
      String message)
      throws IOException {
    Responses.Error body =
        new Responses.Error(new Responses.ErrorDetail(codeOf(code), messageOf(code, message)));
    byte[] bytes = json.write(body).getBytes(StandardCharsets.UTF_8);
    RequestGuard.protect(response);
    response.setContentType("application/json");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
    baseRequest.setHandled(true);
  }

  /**
   * A request Jetty refuses while parsing it (bad percent-encoding, NUL in the path, a URI or
   * header too long): answered before any handler runs, so the body is built here.
   */
  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json");
    fields.put("X-Content-Type-Options", "nosniff");
    fields.put("Content-Security-Policy", RequestGuard.CSP);
    String message =
        reason == null || reason.isBlank()
            ? "malformed request (HTTP " + status + ")"
            : "malformed request: " + reason;
    Responses.Error body = new Responses.Error(new Responses.ErrorDetail(codeOf(status), message));
    return ByteBuffer.wrap(json.write(body).getBytes(StandardCharsets.UTF_8));
  }

  private static String codeOf(int status) {
    return switch (status) {
      case 400 -> "INVALID_REQUEST";
      case 403 -> "FORBIDDEN";
      case 404 -> "NOT_FOUND";
      case 405 -> "METHOD_NOT_ALLOWED";
      case 413 -> "PAYLOAD_TOO_LARGE";
      case 414 -> "URI_TOO_LONG";
      case 431 -> "HEADERS_TOO_LARGE";
      case 503 -> "UNAVAILABLE";
      default -> "INTERNAL";
    };
  }

  private static String messageOf(int status, String message) {
    if (status == 503) {
      return "the server is not taking requests now (it is stopping); retry";
    }
    return message == null || message.isBlank() ? "HTTP " + status : message;
  }
}
