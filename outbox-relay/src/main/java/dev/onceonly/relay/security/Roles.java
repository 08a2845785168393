package dev.onceonly.relay.security;

/** The roles of the operator API: reads need either, changes need {@link #ADMIN}. */
public final class Roles {

  /** May read rows, attempts, stats and the audit. */
  public static final String VIEWER = "outbox-viewer";

  /** May also retry, cancel and replay. */
  public static final String ADMIN = "outbox-admin";

  private Roles() {}
}
