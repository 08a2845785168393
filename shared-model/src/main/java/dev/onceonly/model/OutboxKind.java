package dev.onceonly.model;

import java.util.Arrays;
import java.util.Optional;

/** What an outbox row asks a provider to do; the wire value is stored in {@code outbox.kind}. */
public enum OutboxKind {
  /** A receipt e-mail for a completed order (e-mail provider API). */
  SEND_RECEIPT("send_receipt"),
  /** A cash payout for a redemption (payment provider API). */
  ISSUE_PAYOUT("issue_payout");

  private final String value;

  OutboxKind(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  public static Optional<OutboxKind> fromValue(String value) {
    return Arrays.stream(values()).filter(k -> k.value.equals(value)).findFirst();
  }
}
