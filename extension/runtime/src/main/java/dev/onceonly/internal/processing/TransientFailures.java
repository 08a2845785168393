package dev.onceonly.internal.processing;

import java.sql.SQLException;
import java.util.Set;

/** Which failures are worth a new transaction: a pure function of the exception chain. */
public final class TransientFailures {

  /** Serialization failure, deadlock, and the server going away or refusing connections. */
  private static final Set<String> RETRYABLE_STATES =
      Set.of("40001", "40P01", "57P01", "57P02", "57P03", "53300");

  private TransientFailures() {}

  public static boolean isTransient(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && isTransientState(sql.getSQLState())) {
        return true;
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
