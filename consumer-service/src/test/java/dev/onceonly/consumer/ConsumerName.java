package dev.onceonly.consumer;

/** The example's three consumers, by the names their handlers give them, for tests. */
public enum ConsumerName {
  LOYALTY("loyalty"),
  RECEIPTS("receipts"),
  PROFILES("profiles");

  private final String value;

  ConsumerName(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }
}
