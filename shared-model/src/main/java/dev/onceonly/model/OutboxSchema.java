package dev.onceonly.model;

/**
 * Where the outbox lives: its own PostgreSQL schema with its own Flyway history, migrated by the
 * writer (consumer-service) from {@link #MIGRATIONS}, checked but never created by the relay.
 */
public final class OutboxSchema {

  /** The PostgreSQL schema holding {@code outbox} and {@code outbox_attempts}. */
  public static final String SCHEMA = "outbox";

  /** Classpath location of the outbox migrations inside this jar. */
  public static final String MIGRATIONS = "db/outbox";

  /** The Flyway history table of the outbox schema. */
  public static final String HISTORY_TABLE = "flyway_outbox_history";

  /** The newest migration version a relay of this build needs. */
  public static final String REQUIRED_VERSION = "6";

  /** The {@code LISTEN}/{@code NOTIFY} channel a commit that wrote outbox rows notifies. */
  public static final String NOTIFY_CHANNEL = "outbox";

  private OutboxSchema() {}
}
