package dev.onceonly.relay.operations;

/** An operator change that cannot be made; nothing was changed. */
public class OperationRefused extends RuntimeException {

  /** Why: the row does not exist, or its state (or another replay) does not allow it now. */
  public enum Reason {
    NOT_FOUND,
    CONFLICT
  }

  private final Reason reason;

  public OperationRefused(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
