package io.redrive.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.redrive.PayloadTooLargeException;
import io.redrive.error.CommitUnknownException;
import io.redrive.error.ConflictException;
import io.redrive.error.NotFoundException;
import io.redrive.error.RedriveException;
import io.redrive.error.StoreException;
import io.redrive.server.auth.AuthException;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where exceptions become HTTP responses: {@code {"error": {"code", "message"}}} with
 * the status docs/api.md gives for the code. Anything unexpected is logged and answered 500 {@code
 * INTERNAL} without internals.
 */
final class ErrorMapper {
  private static final Logger log = LoggerFactory.getLogger(ErrorMapper.class);

  private final JsonCodec json;

  ErrorMapper(JsonCodec json) {
    this.json = json;
  }

  /** An error as status, code and message. */
  record ApiError(int status, String code, String message) {}

  void handle(Exception exception, Context ctx) {
    ApiError error = toError(exception, ctx.method() + " " + ctx.path());
    write(ctx, error);
  }

  void write(Context ctx, ApiError error) {
    Responses.Error body =
        new Responses.Error(new Responses.ErrorDetail(error.code(), error.message()));
    String retryAfter = retryAfter(error);
    if (retryAfter != null) {
      ctx.header("Retry-After", retryAfter);
    }
    ctx.status(error.status()).contentType("application/json").result(json.write(body));
  }

  /** The {@code Retry-After} seconds for {@code error}, or null when it has none. */
  static String retryAfter(ApiError error) {
    return switch (error.code()) {
      // A prompt idempotent retry is how the caller learns what happened to its commit.
      case CommitUnknownException.CODE -> "1";
      case "STORE_UNAVAILABLE" -> String.valueOf(ConnectionFailures.RETRY_AFTER_SECONDS);
      default -> null;
    };
  }

  ApiError toError(Throwable thrown, String request) {
    Throwable t = unwrap(thrown);
    if (t instanceof ApiException e) {
      return new ApiError(e.status(), e.code(), e.getMessage());
    }
    if (t instanceof AuthException e) {
      return new ApiError(e.status(), e.code(), e.getMessage());
    }
    if (t instanceof PayloadTooLargeException e) {
      return new ApiError(413, "PAYLOAD_TOO_LARGE", e.getMessage());
    }
    if (t instanceof IllegalArgumentException e) {
      return new ApiError(400, "INVALID_REQUEST", e.getMessage());
    }
    if (t instanceof JsonProcessingException e) {
      return jsonError(e);
    }
    if (t instanceof NotFoundException e) {
      return new ApiError(404, e.code(), e.getMessage());
    }
    if (t instanceof ConflictException e) {
      return new ApiError(409, e.code(), e.getMessage());
    }
    // The store's own words (JDBC messages, SQLStates, pool state, server errors) go to the log
    // under a reference; the client gets the code, a sentence, and that reference.
    if (t instanceof CommitUnknownException e) {
      String ref = reference();
      log.warn("{} [ref {}]: commit outcome unknown: {}", request, ref, e.getMessage());
      return new ApiError(
          503,
          e.code(),
          "the connection to the database was lost while committing: the change may have"
              + " happened; retry idempotently to learn which (server log ref "
              + ref
              + ")");
    }
    if (t instanceof StoreException e) {
      String ref = reference();
      if (e.transientFailure() || ConnectionFailures.isConnectionFailure(e)) {
        log.warn("{} [ref {}]: transient store failure: {}", request, ref, e.getMessage());
        return new ApiError(
            503,
            "STORE_UNAVAILABLE",
            "the database is down, unreachable or not answering: nothing happened; retry after"
                + " Retry-After (server log ref "
                + ref
                + ")");
      }
      log.error("{} [ref {}]: store failure", request, ref, e);
      return new ApiError(
          500,
          "STORE_ERROR",
          "the database refused the request: the server log has the details (ref " + ref + ")");
    }
    if (t instanceof RedriveException e) {
      String ref = reference();
      log.error("{} [ref {}]: unmapped Redrive exception", request, ref, e);
      return new ApiError(
          500, e.code(), "internal error: the server log has the details (ref " + ref + ")");
    }
    if (t instanceof HttpResponseException e) {
      return switch (e.getStatus()) {
        case 404 -> new ApiError(404, "NOT_FOUND", "no such endpoint: " + request);
        case 405 -> new ApiError(405, "METHOD_NOT_ALLOWED", "method not allowed: " + request);
        case 413 -> new ApiError(413, "PAYLOAD_TOO_LARGE", "request body too large");
        case 400 -> new ApiError(400, "INVALID_REQUEST", e.getMessage());
        default -> new ApiError(e.getStatus(), "HTTP_" + e.getStatus(), e.getMessage());
      };
    }
    String ref = reference();
    log.error("{} [ref {}]: unexpected failure", request, ref, t);
    return new ApiError(
        500, "INTERNAL", "internal error: the server log has the details (ref " + ref + ")");
  }

  /** A short random reference tying an answer to its log line. */
  private static String reference() {
    return String.format("%08x", ThreadLocalRandom.current().nextInt());
  }

  private static ApiError jsonError(JsonProcessingException e) {
    if (e.getCause() instanceof StreamReadException cause) {
      return new ApiError(400, "MALFORMED_JSON", "malformed JSON: " + cause.getOriginalMessage());
    }
    if (e instanceof UnrecognizedPropertyException u) {
      String at = path(u);
      int dot = at.lastIndexOf('.');
      String parent = dot < 0 ? "" : at.substring(0, dot);
      return new ApiError(
          400,
          "UNKNOWN_FIELD",
          "unknown field \""
              + u.getPropertyName()
              + "\""
              + (parent.isEmpty() ? "" : " in " + parent)
              + " (known: "
              + String.join(", ", u.getKnownPropertyIds().stream().map(Object::toString).toList())
              + ")");
    }
    if (e instanceof ValueInstantiationException v && v.getCause() != null) {
      Throwable cause = v.getCause();
      if (cause instanceof IllegalArgumentException) {
        return new ApiError(400, "INVALID_REQUEST", cause.getMessage());
      }
    }
    if (e instanceof MismatchedInputException t
        && t.getOriginalMessage() != null
        && t.getOriginalMessage().startsWith("Trailing token")) {
      return new ApiError(
          400, "MALFORMED_JSON", "malformed JSON: more content after the JSON value");
    }
    if (e instanceof InvalidFormatException f) {
      return new ApiError(
          400,
          "INVALID_REQUEST",
          name(path(f)) + ": invalid value " + shown(f.getValue()) + " (" + expected(f) + ")");
    }
    if (e instanceof MismatchedInputException m) {
      String at = path(m);
      return new ApiError(400, "INVALID_REQUEST", name(at) + ": wrong type (" + expected(m) + ")");
    }
    if (e instanceof StreamReadException) {
      return new ApiError(400, "MALFORMED_JSON", "malformed JSON: " + e.getOriginalMessage());
    }
    if (e instanceof JsonMappingException m) {
      return new ApiError(400, "INVALID_REQUEST", name(path(m)) + ": " + e.getOriginalMessage());
    }
    return new ApiError(400, "MALFORMED_JSON", "malformed JSON: " + e.getOriginalMessage());
  }

  private static String expected(MismatchedInputException m) {
    Class<?> type = m.getTargetType();
    if (type == null) {
      return "unexpected value";
    }
    if (type == String.class) {
      return "expected a string";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
      return "expected a whole number";
    }
    if (type == Double.class || type == double.class) {
      return "expected a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "expected true or false";
    }
    if (java.util.List.class.isAssignableFrom(type) || type.isArray()) {
      return "expected an array";
    }
    if (Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "expected an object";
    }
    if (type == java.time.Instant.class) {
      return "expected an ISO-8601 instant such as 2030-01-01T00:00:00Z";
    }
    return "expected " + type.getSimpleName();
  }

  private static String shown(Object value) {
    String s = String.valueOf(value);
    if (s.length() > 80) {
      s = s.substring(0, 80) + "...";
    }
    return value instanceof String ? "\"" + s + "\"" : s;
  }

  private static String name(String path) {
    return path.isEmpty() ? "body" : path;
  }

  /** The JSON path of a mapping error, e.g. {@code messages[0].type}. */
  private static String path(JsonMappingException e) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        if (b.length() > 0) {
          b.append('.');
        }
        b.append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  private static Throwable unwrap(Throwable t) {
    Throwable current = t;
    while ((current instanceof CompletionException || current instanceof ExecutionException)
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }
}
