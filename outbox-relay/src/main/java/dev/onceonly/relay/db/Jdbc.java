package dev.onceonly.relay.db;

import io.quarkus.narayana.jta.QuarkusTransaction;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collection;
import javax.sql.DataSource;

/**
 * Plain JDBC plumbing for the delivery loop: one short local transaction per unit of work, on a
 * pooled connection, committed before the call returns. No JTA: these transactions touch one
 * database and never span anything else, and the transaction manager's bookkeeping cost about a
 * quarter of the poller's and the completion writer's CPU. Not to be called inside a JTA
 * transaction (its connection is enlisted there and cannot commit by itself).
 */
public final class Jdbc {

  /** A unit of JDBC work run inside {@link #inTransaction}. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;

  public Jdbc(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Runs {@code work} in a new transaction of its own, committed before this returns. */
  public <T> T inTransaction(Work<T> work) {
    if (QuarkusTransaction.isActive()) {
      throw new IllegalStateException("the delivery loop's SQL runs outside JTA transactions");
    }
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try {
        T result = work.run(connection);
        connection.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollback(connection, e);
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new DatabaseException(e);
    }
  }

  private static void rollback(Connection connection, Exception cause) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  /** A failed unit of work: the database's error, unchecked. */
  public static final class DatabaseException extends RuntimeException {
    DatabaseException(SQLException cause) {
      super(cause.getMessage() + " (SQLState " + cause.getSQLState() + ")", cause);
    }
  }

  public static void setInteger(PreparedStatement statement, int index, Integer value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.INTEGER);
    } else {
      statement.setInt(index, value);
    }
  }

  public static Array textArray(Connection connection, Collection<String> values)
      throws SQLException {
    return connection.createArrayOf("text", values.toArray());
  }
}
