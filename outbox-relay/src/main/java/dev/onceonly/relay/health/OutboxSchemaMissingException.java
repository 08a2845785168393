package dev.onceonly.relay.health;

/** The outbox schema is absent or older than this relay needs; startup stops with this. */
public class OutboxSchemaMissingException extends IllegalStateException {

  public OutboxSchemaMissingException(String message) {
    super(message);
  }
}
