package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxStatus;
import dev.onceonly.web.Params;
import dev.onceonly.web.ProblemException;
import java.util.Arrays;
import java.util.Locale;

/** The outbox's own parameters, read as {@link Params} reads the common ones. */
final class OutboxParams {

  private OutboxParams() {}

  static long rowId(String raw) {
    return Params.id("the outbox row id", raw);
  }

  static OutboxStatus status(String raw) {
    String value =
        Params.oneOf(
            "status", raw, Arrays.stream(OutboxStatus.values()).map(OutboxStatus::value).toList());
    return value == null ? null : OutboxStatus.fromValue(value).orElseThrow();
  }

  static boolean newestFirst(String raw) {
    String value = Params.text("order", raw);
    if (value == null) {
      return true;
    }
    switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "newest":
        return true;
      case "oldest":
        return false;
      default:
        throw ProblemException.badRequest("order must be newest or oldest, was '" + raw + "'");
    }
  }
}
