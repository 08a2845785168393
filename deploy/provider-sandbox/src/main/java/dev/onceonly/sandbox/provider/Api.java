package dev.onceonly.sandbox.provider;

import dev.onceonly.sandbox.problem.ProblemException;

/**
 * The provider APIs the sandbox stands in for. Each has its own keys and counters. {@link
 * #WEBHOOKS} is a webhook receiver: it takes a call only with a valid Standard Webhooks signature
 * and de-duplicates by {@code webhook-id} instead of {@code Idempotency-Key}.
 */
public enum Api {
  RECEIPTS("receipts", "rcpt_", "receipt"),
  PAYOUTS("payouts", "po_", "payout"),
  WEBHOOKS("webhooks", "wh_", "webhook");

  private final String path;
  private final String idPrefix;
  private final String objectName;

  Api(String path, String idPrefix, String objectName) {
    this.path = path;
    this.idPrefix = idPrefix;
    this.objectName = objectName;
  }

  /** The name used in URLs, stats and fault settings: {@code receipts}, {@code payouts}, ... */
  public String path() {
    return path;
  }

  public String idPrefix() {
    return idPrefix;
  }

  public String objectName() {
    return objectName;
  }

  /** Resolves a URL segment, answering 404 for an API the sandbox does not have. */
  public static Api fromPath(String path) {
    for (Api api : values()) {
      if (api.path.equals(path)) {
        return api;
      }
    }
    throw new ProblemException(
        404,
        "unknown-api",
        "Unknown API",
        "No API '" + path + "': use receipts, payouts or webhooks.");
  }
}
