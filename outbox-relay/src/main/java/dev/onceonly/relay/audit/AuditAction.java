package dev.onceonly.relay.audit;

/** What an operator did; the wire value is stored in {@code outbox_audit.action}. */
public enum AuditAction {
  RETRY("retry"),
  CANCEL("cancel"),
  REPLAY("replay");

  private final String value;

  AuditAction(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }
}
