package io.redrive.server.http;

/**
 * A request the HTTP layer refuses before it reaches the engine, with its status and stable code
 * (unknown query parameter, body too large, missing body). Nothing was changed.
 */
final class ApiException extends RuntimeException {
  private final int status;
  private final String code;

  ApiException(int status, String code, String message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  static ApiException unknownField(String field, String where) {
    return new ApiException(400, "UNKNOWN_FIELD", "unknown field \"" + field + "\"" + where);
  }

  static ApiException tooLarge(long bytes, long limit) {
    return new ApiException(
        413,
        "PAYLOAD_TOO_LARGE",
        "request body is "
            + (bytes < 0 ? "more than " + limit : String.valueOf(bytes))
            + " bytes, larger than the limit of "
            + limit
            + " bytes");
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }
}
