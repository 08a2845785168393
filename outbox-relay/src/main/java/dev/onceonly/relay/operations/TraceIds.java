package dev.onceonly.relay.operations;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The trace id inside a W3C {@code traceparent} ({@code 00-<trace id>-<span id>-<flags>}): what an
 * operator finds in a trace viewer or a log line and searches the console for.
 */
public final class TraceIds {

  private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");
  private static final String INVALID = "0".repeat(32);

  private TraceIds() {}

  /** The trace id of {@code traceParent}, or null when it is absent or not a traceparent. */
  public static String of(String traceParent) {
    if (traceParent == null) {
      return null;
    }
    String[] fields = traceParent.strip().split("-");
    if (fields.length < 4) {
      return null;
    }
    String id = fields[1].toLowerCase(Locale.ROOT);
    return isTraceId(id) ? id : null;
  }

  /** Whether {@code text} is a valid trace id: 32 lower-case hex digits, not all zero. */
  public static boolean isTraceId(String text) {
    return text != null && TRACE_ID.matcher(text).matches() && !INVALID.equals(text);
  }
}
