package dev.onceonly.web;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Collection;

/**
 * Reads request parameters given as text and turns anything wrong into a 400 whose detail says what
 * to send instead. Resources take their parameters as {@code String}: a typed JAX-RS parameter
 * answers 404 for {@code size=abc} and cannot say which parameter was wrong.
 */
public final class Params {

  private Params() {}

  /** Free text, or null when absent or blank; refuses a NUL character (no stored text has one). */
  public static String text(String name, String raw) {
    if (blank(raw)) {
      return null;
    }
    requireNoNul(name, raw);
    return raw;
  }

  /** Free text that must be given. */
  public static String requiredText(String name, String raw) {
    String value = text(name, raw);
    if (value == null) {
      throw ProblemException.badRequest(name + " is required");
    }
    return value;
  }

  /** Refuses a value containing NUL: PostgreSQL cannot store or compare it. */
  public static void requireNoNul(String name, String value) {
    if (value != null && value.indexOf('\0') >= 0) {
      throw ProblemException.badRequest(nulDetail(name));
    }
  }

  /** The detail of a refused NUL character, the same wherever it was found. */
  public static String nulDetail(String name) {
    return name
        + " contains a NUL character (%00 or \\u0000), which no stored text can hold: remove it";
  }

  /** A positive whole number naming one thing, e.g. a row id. */
  public static long id(String what, String raw) {
    Long id = positiveLong(raw);
    if (id == null) {
      throw ProblemException.badRequest(
          what + " must be a positive whole number, was '" + raw + "'");
    }
    return id;
  }

  /** The {@code nextCursor} of a previous page, or null for the first page. */
  public static Long cursor(String raw) {
    if (blank(raw)) {
      return null;
    }
    Long cursor = positiveLong(raw);
    if (cursor == null) {
      throw ProblemException.badRequest(
          "cursor must be the nextCursor of a previous page (a positive whole number), was '"
              + raw
              + "'");
    }
    return cursor;
  }

  /** A page size from 1 to {@code max}; {@code fallback} when absent. */
  public static int size(String raw, int fallback, int max) {
    return wholeNumber("size", raw, fallback, 1, max);
  }

  /** A whole number from {@code min} to {@code max}; {@code fallback} when absent. */
  public static int wholeNumber(String name, String raw, int fallback, int min, int max) {
    if (blank(raw)) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(raw.strip());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ProblemException.badRequest(
        name + " must be a whole number from " + min + " to " + max + ", was '" + raw + "'");
  }

  /** An ISO-8601 timestamp with an offset, or null when absent. */
  public static Instant timestamp(String name, String raw) {
    if (blank(raw)) {
      return null;
    }
    try {
      return OffsetDateTime.parse(raw.strip()).toInstant();
    } catch (DateTimeParseException e) {
      throw ProblemException.badRequest(
          name
              + " must be an ISO-8601 timestamp with an offset, e.g. 2026-05-01T00:00:00Z, was '"
              + raw
              + "'");
    }
  }

  /** Refuses an empty time range. */
  public static void range(Instant createdAfter, Instant createdBefore) {
    if (createdAfter != null && createdBefore != null && !createdAfter.isBefore(createdBefore)) {
      throw ProblemException.badRequest(
          "createdAfter ("
              + createdAfter
              + ") must be earlier than createdBefore ("
              + createdBefore
              + "): swap them or widen the range");
    }
  }

  /**
   * One of {@code allowed} (compared after stripping), or null when absent; the refusal lists them
   * in the collection's order.
   */
  public static String oneOf(String name, String raw, Collection<String> allowed) {
    if (blank(raw)) {
      return null;
    }
    String value = raw.strip();
    if (!allowed.contains(value)) {
      throw ProblemException.badRequest(
          "unknown " + name + " '" + raw + "': use one of " + String.join(", ", allowed));
    }
    return value;
  }

  private static Long positiveLong(String raw) {
    if (blank(raw)) {
      return null;
    }
    try {
      long value = Long.parseLong(raw.strip());
      return value > 0 ? value : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static boolean blank(String raw) {
    return raw == null || raw.isBlank();
  }
}
