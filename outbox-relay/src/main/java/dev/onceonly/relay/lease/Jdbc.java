package dev.onceonly.relay.lease;

import io.quarkus.narayana.jta.QuarkusTransaction;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collection;
import javax.sql.DataSource;

/** Plain JDBC plumbing for the repository: one short JTA transaction per unit of work. */
final class Jdbc {

  /** A unit of JDBC work run inside {@link #inTransaction}. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;

  Jdbc(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Runs {@code work} in a new transaction of its own, committed before this returns. */
  <T> T inTransaction(Work<T> work) {
    return QuarkusTransaction.requiringNew()
        .call(
            () -> {
              try (Connection connection = dataSource.getConnection()) {
                return work.run(connection);
              }
            });
  }

  static void setInteger(PreparedStatement statement, int index, Integer value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.INTEGER);
    } else {
      statement.setInt(index, value);
    }
  }

  static Array textArray(Connection connection, Collection<String> values) throws SQLException {
    return connection.createArrayOf("text", values.toArray());
  }
}
