package dev.onceonly.internal.processing;

import java.sql.SQLException;
import java.util.Set;

/** Which failures are worth a new transaction: a pure function of the exception chain. */
public final class TransientFailures {

  /** Serialization failure, deadlock, and the server going away or refusing connections. */
  private static final Set<String> RETRYABLE_STATES =
      Set.of("40001", "40P01", "57P01", "57P02", "57P03", "53300");

  private TransientFailures() {}

  /**
   * Whether {@code failure}, its causes or the exceptions suppressed along them carry a transient
   * SQLState. The transaction manager reports a commit that failed because the server ended the
   * connection as a RollbackException with the driver's exception suppressed, not as its cause.
   */
  public static boolean isTransient(Throwable failure) {
    return isTransient(failure, 0);
  }

  private static boolean isTransient(Throwable failure, int depth) {
    for (Throwable t = failure; t != null && depth < 8; t = t.getCause()) {
      if (t instanceof SQLException sql && isTransientState(sql.getSQLState())) {
        return true;
      }
      for (Throwable suppressed : t.getSuppressed()) {
        if (isTransient(suppressed, depth + 1)) {
          return true;
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  static boolean isTransientState(String sqlState) {
    return sqlState != null && (RETRYABLE_STATES.contains(sqlState) || sqlState.startsWith("08"));
  }
}
