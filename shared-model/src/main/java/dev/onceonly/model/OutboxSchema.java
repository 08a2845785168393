package dev.onceonly.model;

import java.util.Map;

/**
 * Where the outbox lives: its own PostgreSQL schema with its own Flyway history, migrated by the
 * writer (every service on the OnceOnly extension) from {@link #MIGRATIONS}, checked but never
 * created by the relay.
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

  /**
   * How the outbox history is migrated, in Flyway's own setting names ({@code flyway.outOfOrder}),
   * wherever it is migrated: by the OnceOnly extension in every writing service (and so in the
   * migrations Job), and by the relay's tests. Out of order: V4_1 and V4_2 came after V5, so a
   * lower version missing from a deployed history still applies ({@code db/outbox/README.md}).
   */
  public static Map<String, String> flywaySettings() {
    return Map.of(
        "flyway.schemas", SCHEMA,
        "flyway.defaultSchema", SCHEMA,
        "flyway.table", HISTORY_TABLE,
        "flyway.locations", MIGRATIONS,
        "flyway.outOfOrder", "true");
  }

  private OutboxSchema() {}
}
