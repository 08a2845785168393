package dev.onceonly.internal.operations;

/** The two roles of the operator API: read everything, or also change things. */
public final class Roles {

  public static final String VIEWER = "outbox-viewer";
  public static final String ADMIN = "outbox-admin";

  private Roles() {}
}
