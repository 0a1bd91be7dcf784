package io.redrive.deadletter;

import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.message.HistoryEntry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a dead message died of, reduced to what messages dying of the same cause share: its dead
 * reason, its type, and of its cause (the latest failure of its history that is not POISON or
 * EXPIRED bookkeeping, see {@link #causeOf}) the reason, the exception class, the error message
 * with its variable parts replaced ({@link #normalise}) and the top three stack frames. {@link
 * #key} is the first 16 hex characters of the SHA-256 of those pieces; dead messages with one key
 * form one dead-letter group. A pure value; the pieces are kept so a UI can show what grouped the
 * messages.
 *
 * <p>Implementation notes. The rules are deliberately simple text rules, applied in this order to
 * the message: UUIDs → {@code <uuid>}; quoted values ('…', "…", `…`) → {@code <str>}; {@code 0x}
 * numbers and hex runs of 8+ characters with a letter and a digit → {@code <hex>}; tokens of 8+
 * letters and digits with 3+ digits or 2+ separate digit runs → {@code <id>} (ULIDs, hashes, ids,
 * while {@code Http2Exception} or {@code Base64Decoder} stay); standalone numbers (integers,
 * decimals, negative, dotted or colon-separated like {@code 10.0.0.1} or {@code 12:30:05}, with an
 * optional unit such as {@code ms}, {@code s} or {@code %}) → {@code <n>} (the unit is kept); runs
 * of whitespace → one space. A key depends on these rules: when they change in a later version, a
 * message that dies afterwards may get another key than one that died before.
 *
 * @param reason the dead reason (POISON, EXPIRED, or the reason of the failure that killed it)
 * @param type the message's type
 * @param causeReason the reason of the cause, or null when its history has none
 * @param exceptionClass the exception class named by the cause's stack trace, or null
 * @param pattern the cause's error message normalised, or null when it has none
 * @param frames up to three top stack frames, normalised (empty without a stack trace)
 * @param key 16 lower-case hex characters identifying the group
 */
public record Fingerprint(
    FailureReason reason,
    String type,
    FailureReason causeReason,
    String exceptionClass,
    String pattern,
    List<String> frames,
    String key) {

  /** How many stack frames take part. */
  public static final int FRAMES = 3;

  /** Length of a key in hex characters. */
  public static final int KEY_LENGTH = 16;

  private static final Pattern KEY = Pattern.compile("[0-9a-f]{" + KEY_LENGTH + "}");
  private static final Pattern UUID =
      Pattern.compile(
          "(?<![0-9A-Za-z])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
              + "[0-9a-fA-F]{12}(?![0-9A-Za-z])");
  // A single quote opens only where a word does not go on (so "don't" and "it's" are no quotes).
  private static final Pattern QUOTED =
      Pattern.compile("(?<!\\w)'[^'\\r\\n]*'(?!\\w)|\"[^\"\\r\\n]*\"|`[^`\\r\\n]*`");
  private static final Pattern HEX_NUMBER =
      Pattern.compile("(?<![0-9A-Za-z])0[xX][0-9a-fA-F]+(?![0-9A-Za-z])");
  private static final Pattern HEX_RUN =
      Pattern.compile(
          "(?<![0-9A-Za-z])(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}"
              + "(?![0-9A-Za-z])");
  private static final Pattern TOKEN =
      Pattern.compile("(?<![0-9A-Za-z])[0-9A-Za-z]{8,}(?![0-9A-Za-z])");
  private static final Pattern NUMBER =
      Pattern.compile(
          "(?<![0-9A-Za-z_.])-?\\d+(?:[.:]\\d+)*(ms|us|ns|s|m|h|d|b|kb|mb|gb|KB|MB|GB|%)?"
              + "(?![0-9A-Za-z_])");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  private static final Pattern CLASS_NAME =
      Pattern.compile("[A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)*");
  private static final Pattern JAVA_FRAME =
      Pattern.compile("^\\s*at\\s+([^\\s(]+)\\([^)]*\\)\\s*$");
  // A module or class loader prefix: java.base@17.0.2/ or app//.
  private static final Pattern JAVA_MODULE = Pattern.compile("^[\\w.@-]*/+(?=[\\w$])");
  private static final Pattern JAVA_LAMBDA =
      Pattern.compile("\\$\\$Lambda(?:\\$\\d+)?/0[xX][0-9a-fA-F]+");
  // Frames of other languages: "at f (file:1:2)" (JavaScript, .NET), File "x.py", line 3
  // (Python), "#0 /x.php(12)" (PHP), or any line naming a file and a line ("x.go:12", "x.rb:3:in").
  private static final Pattern OTHER_FRAME =
      Pattern.compile("^(?:at\\s.+|File\\s+\".*|#\\d+\\s.+|.*\\S+\\.\\w+[:(]\\d+.*)$");
  private static final Pattern DIGITS = Pattern.compile("\\d+");

  public Fingerprint {
    frames = List.copyOf(frames);
  }

  /**
   * The fingerprint of a message of {@code type} dead for {@code reason} with {@code cause} (see
   * {@link #causeOf}).
   *
   * @param cause the cause, or null when the message's history has none
   */
  public static Fingerprint of(FailureReason reason, String type, FailureRecord cause) {
    FailureReason causeReason = cause == null ? null : cause.reason();
    String trace = cause == null ? null : cause.stackTrace();
    String exceptionClass = exceptionClass(trace);
    // A lease expiry's message is the engine's own sentence naming the worker that vanished: the
    // workers differ, the cause (a crash) is one, so its text takes no part.
    String pattern =
        cause == null || causeReason == FailureReason.LEASE_EXPIRED
            ? null
            : normalise(cause.message());
    List<String> frames = frames(trace);
    StringBuilder text = new StringBuilder("redrive-fingerprint-1\n");
    text.append("reason=").append(reason == null ? "" : reason.name()).append('\n');
    text.append("type=").append(type == null ? "" : type).append('\n');
    text.append("cause=").append(causeReason == null ? "" : causeReason.name()).append('\n');
    text.append("exception=").append(exceptionClass == null ? "" : exceptionClass).append('\n');
    text.append("pattern=").append(pattern == null ? "" : pattern).append('\n');
    for (String frame : frames) {
      text.append("frame=").append(frame).append('\n');
    }
    return new Fingerprint(
        reason, type, causeReason, exceptionClass, pattern, frames, sha256(text.toString()));
  }

  /**
   * The fingerprint of a failure that is not a dead message's (a failed workflow instance's), by
   * the same rules: the message is {@linkplain #normalise normalised}, the exception class is
   * {@code exceptionClass} or else read from the stack trace, and the top {@link #FRAMES} frames
   * take part. The hashed text starts with {@code kind}, so a key of one kind never equals another
   * kind's or a dead-letter group's. The caller takes out what its own ids look like before (the
   * normalisation knows only generic ids).
   *
   * @param kind what failed, e.g. {@code workflow}
   * @param reason the failure's reason as text, or null
   * @param type what the failing thing is (e.g. an activity's name), or null
   * @param causeReason the reason of the failure underneath, or null
   * @param exceptionClass the exception class when known, or null to read it from {@code
   *     stackTrace}
   * @param message the error message, or null
   * @param stackTrace the stack trace, or null
   */
  public static Text ofText(
      String kind,
      String reason,
      String type,
      String causeReason,
      String exceptionClass,
      String message,
      String stackTrace) {
    if (kind == null || kind.isBlank()) {
      throw new IllegalArgumentException("kind is required");
    }
    String exception =
        exceptionClass == null || exceptionClass.isBlank()
            ? exceptionClass(stackTrace)
            : exceptionClass;
    String pattern = normalise(message);
    List<String> frames = frames(stackTrace);
    StringBuilder text = new StringBuilder("redrive-fingerprint-text-1\n");
    text.append("kind=").append(kind).append('\n');
    text.append("reason=").append(reason == null ? "" : reason).append('\n');
    text.append("type=").append(type == null ? "" : type).append('\n');
    text.append("cause=").append(causeReason == null ? "" : causeReason).append('\n');
    text.append("exception=").append(exception == null ? "" : exception).append('\n');
    text.append("pattern=").append(pattern == null ? "" : pattern).append('\n');
    for (String frame : frames) {
      text.append("frame=").append(frame).append('\n');
    }
    return new Text(
        kind, reason, type, causeReason, exception, pattern, frames, sha256(text.toString()));
  }

  /**
   * A fingerprint of {@link #ofText}: the pieces that were hashed, kept so a UI can show what
   * grouped the failures, and the key.
   *
   * @param kind what failed
   * @param reason the failure's reason, or null
   * @param type what the failing thing is, or null
   * @param causeReason the reason of the failure underneath, or null
   * @param exceptionClass the exception class, or null
   * @param pattern the message normalised, or null
   * @param frames up to three top stack frames, normalised
   * @param key 16 lower-case hex characters
   */
  public record Text(
      String kind,
      String reason,
      String type,
      String causeReason,
      String exceptionClass,
      String pattern,
      List<String> frames,
      String key) {
    public Text {
      frames = List.copyOf(frames);
    }
  }

  /**
   * The fingerprint of a message of {@code type} dead for {@code reason} with this history, oldest
   * entry first.
   */
  public static Fingerprint of(FailureReason reason, String type, List<HistoryEntry> history) {
    return of(reason, type, causeOf(history));
  }

  /**
   * The cause of a death: the latest failure of {@code history} (oldest entry first) that is not
   * POISON or EXPIRED bookkeeping, so a message poisoned after three handler exceptions is grouped
   * by the last exception; null when there is none (an imported message, a message that expired
   * before any attempt failed).
   */
  public static FailureRecord causeOf(List<HistoryEntry> history) {
    for (int i = history.size() - 1; i >= 0; i--) {
      FailureRecord f = history.get(i).failure();
      if (f != null && isCause(f.reason())) {
        return f;
      }
    }
    return null;
  }

  /** Whether a failure of this reason can be a cause (POISON and EXPIRED only report a death). */
  public static boolean isCause(FailureReason reason) {
    return reason != FailureReason.POISON && reason != FailureReason.EXPIRED;
  }

  /**
   * {@code value} when it is a well-formed key (16 lower-case hex characters).
   *
   * @throws IllegalArgumentException naming {@code field} and the value otherwise
   */
  public static String requireKey(String field, String value) {
    if (value == null || !KEY.matcher(value).matches()) {
      throw new IllegalArgumentException(
          field
              + ": invalid fingerprint \""
              + value
              + "\" (16 lower-case hex characters, as a dead-letter group shows it)");
    }
    return value;
  }

  /**
   * An error message with its variable parts replaced by placeholders (rules in the class comment);
   * null for null, "" for a blank message.
   */
  public static String normalise(String message) {
    if (message == null) {
      return null;
    }
    String s = UUID.matcher(message).replaceAll("<uuid>");
    s = QUOTED.matcher(s).replaceAll("<str>");
    s = HEX_NUMBER.matcher(s).replaceAll("<hex>");
    s = HEX_RUN.matcher(s).replaceAll("<hex>");
    s =
        TOKEN
            .matcher(s)
            .replaceAll(m -> idLike(m.group()) ? "<id>" : Matcher.quoteReplacement(m.group()));
    s = NUMBER.matcher(s).replaceAll(m -> "<n>" + (m.group(1) == null ? "" : m.group(1)));
    return WHITESPACE.matcher(s).replaceAll(" ").trim();
  }

  /** A token of 8+ letters and digits is an id when it has 3+ digits or 2+ digit runs. */
  private static boolean idLike(String token) {
    int digits = 0;
    int runs = 0;
    boolean inRun = false;
    for (int i = 0; i < token.length(); i++) {
      boolean digit = Character.isDigit(token.charAt(i));
      if (digit) {
        digits++;
        if (!inRun) {
          runs++;
        }
      }
      inRun = digit;
    }
    // All digits is a number, left for the number rule.
    return digits < token.length() && (digits >= 3 || runs >= 2);
  }

  /**
   * The exception class a stack trace starts with: its first line up to the first ':' when that
   * looks like a (qualified) class name, e.g. {@code java.lang.IllegalStateException} or {@code
   * TypeError}; for a Python traceback its last line is read instead. Null otherwise.
   */
  static String exceptionClass(String stackTrace) {
    List<String> lines = lines(stackTrace);
    if (lines.isEmpty()) {
      return null;
    }
    String headline = lines.get(0).trim();
    if (headline.startsWith("Traceback") && lines.size() > 1) {
      headline = lines.get(lines.size() - 1).trim();
    }
    int colon = headline.indexOf(':');
    String head = (colon < 0 ? headline : headline.substring(0, colon)).trim();
    return CLASS_NAME.matcher(head).matches() ? head : null;
  }

  /**
   * The top {@link #FRAMES} frames of a stack trace: Java frames ({@code at a.b.C.m(C.java:12)}) as
   * {@code a.b.C.m} (module prefix and lambda class numbers dropped); without Java frames, the
   * first lines that look like frames of another language, numbers and hex replaced and whitespace
   * collapsed.
   */
  static List<String> frames(String stackTrace) {
    List<String> lines = lines(stackTrace);
    List<String> java = new ArrayList<>(FRAMES);
    for (String line : lines) {
      Matcher m = JAVA_FRAME.matcher(line);
      if (m.matches()) {
        String name = JAVA_MODULE.matcher(m.group(1)).replaceFirst("");
        java.add(JAVA_LAMBDA.matcher(name).replaceAll("\\$\\$Lambda"));
        if (java.size() == FRAMES) {
          break;
        }
      }
    }
    if (!java.isEmpty()) {
      return java;
    }
    List<String> other = new ArrayList<>(FRAMES);
    for (String line : lines) {
      String trimmed = line.trim();
      if (OTHER_FRAME.matcher(trimmed).matches()) {
        String frame = HEX_NUMBER.matcher(trimmed).replaceAll("<hex>");
        frame = DIGITS.matcher(frame).replaceAll("<n>");
        other.add(WHITESPACE.matcher(frame).replaceAll(" "));
        if (other.size() == FRAMES) {
          break;
        }
      }
    }
    return other;
  }

  private static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    if (text == null) {
      return out;
    }
    for (String line : text.split("\\R")) {
      if (!line.isBlank()) {
        out.add(line);
      }
    }
    return out;
  }

  private static String sha256(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, KEY_LENGTH);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
