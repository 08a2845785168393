package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxStatus;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads request parameters as text and turns anything wrong into a 400 whose detail says what to
 * send instead (a typed JAX-RS parameter would answer 404 for {@code size=abc}).
 */
final class QueryParams {

  private QueryParams() {}

  /** Refuses parameters the endpoint does not know, so a typo never widens a filter. */
  static void onlyKnown(Collection<String> given, Set<String> known) {
    for (String name : given) {
      if (!known.contains(name)) {
        String hint =
            "page".equals(name)
                ? "; pages are keyset-based: pass cursor=<nextCursor of the previous page>"
                : "";
        throw ProblemException.badRequest(
            "unknown query parameter '"
                + name
                + "': use "
                + String.join(", ", new TreeSet<>(known))
                + hint);
      }
    }
  }

  static long id(String raw) {
    Long id = positiveLong(raw);
    if (id == null) {
      throw ProblemException.badRequest(
          "the outbox row id must be a positive whole number, was '" + raw + "'");
    }
    return id;
  }

  static Long cursor(String raw) {
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

  static int size(String raw, int fallback, int max) {
    if (blank(raw)) {
      return fallback;
    }
    try {
      int size = Integer.parseInt(raw.strip());
      if (size >= 1 && size <= max) {
        return size;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ProblemException.badRequest(
        "size must be a whole number from 1 to " + max + ", was '" + raw + "'");
  }

  static OutboxStatus status(String raw) {
    if (blank(raw)) {
      return null;
    }
    return OutboxStatus.fromValue(raw.strip())
        .orElseThrow(
            () ->
                ProblemException.badRequest(
                    "unknown status '"
                        + raw
                        + "': use one of "
                        + Arrays.stream(OutboxStatus.values())
                            .map(OutboxStatus::value)
                            .collect(Collectors.joining(", "))));
  }

  static String kind(String raw, Set<String> known) {
    if (blank(raw)) {
      return null;
    }
    String kind = raw.strip();
    if (!known.contains(kind)) {
      throw ProblemException.badRequest(
          "unknown kind '" + raw + "': use one of " + String.join(", ", new TreeSet<>(known)));
    }
    return kind;
  }

  static String text(String raw) {
    return blank(raw) ? null : raw;
  }

  static Instant timestamp(String name, String raw) {
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

  static void range(Instant createdAfter, Instant createdBefore) {
    if (createdAfter != null && createdBefore != null && !createdAfter.isBefore(createdBefore)) {
      throw ProblemException.badRequest(
          "createdAfter ("
              + createdAfter
              + ") must be earlier than createdBefore ("
              + createdBefore
              + "): swap them or widen the range");
    }
  }

  static boolean newestFirst(String raw) {
    if (blank(raw)) {
      return true;
    }
    switch (raw.strip().toLowerCase(Locale.ROOT)) {
      case "newest":
        return true;
      case "oldest":
        return false;
      default:
        throw ProblemException.badRequest("order must be newest or oldest, was '" + raw + "'");
    }
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
