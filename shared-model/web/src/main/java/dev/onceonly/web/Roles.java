package dev.onceonly.web;

/** The roles of the operator APIs: reads need either, changes need {@link #ADMIN}. */
public final class Roles {

  /** May read rows, claims, conflicts, rejections, stats and the audit. */
  public static final String VIEWER = "outbox-viewer";

  /** May also retry, cancel and replay. */
  public static final String ADMIN = "outbox-admin";

  private Roles() {}
}
