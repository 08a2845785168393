package dev.onceonly.runtime;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Plain JDBC on a pooled data source, the one set of helpers the extension, its example and the
 * relay use: single statements ({@link #update}, {@link #list}, {@link #one}) on a connection of
 * the caller's transaction when there is one (a JTA-enlisted connection), and {@link
 * #inTransaction} for a short local transaction of its own. Subclasses may rewrite statement text
 * once per text ({@link #sql}), e.g. to put in a configured schema name.
 */
public class Jdbc {

  /** Maps the current row of a result set. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  /** A unit of JDBC work run inside {@link #inTransaction}. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;

  public Jdbc(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The data source the statements run on. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** The text that runs for {@code sql}; the statement itself unless a subclass rewrites it. */
  public String sql(String sql) {
    return sql;
  }

  /** Executes an insert, update or delete; returns the row count. */
  public int update(String sql, Object... params) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = prepare(c, sql, params)) {
      return ps.executeUpdate();
    }
  }

  /** Every row {@code sql} selects, mapped. */
  public <T> List<T> list(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = prepare(c, sql, params);
        ResultSet rs = ps.executeQuery()) {
      List<T> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(mapper.map(rs));
      }
      return rows;
    }
  }

  /** The first row {@code sql} selects, mapped, if any. */
  public <T> Optional<T> one(String sql, RowMapper<T> mapper, Object... params)
      throws SQLException {
    List<T> rows = list(sql, mapper, params);
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  /**
   * Runs {@code work} in a new local transaction of its own, committed before this returns, rolled
   * back if it throws. Not inside a JTA transaction: a connection enlisted there is not in
   * auto-commit mode and cannot commit by itself, which this refuses up front.
   *
   * @throws DatabaseException the database's error, unchecked
   */
  public <T> T inTransaction(Work<T> work) {
    try (Connection connection = dataSource.getConnection()) {
      if (!connection.getAutoCommit()) {
        throw new IllegalStateException(
            "a local transaction cannot start on a connection already in one (inside a JTA"
                + " transaction?)");
      }
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

  /** A prepared statement of {@link #sql}({@code sql}); a {@code String[]} binds as text[]. */
  public PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql(sql));
    try {
      for (int i = 0; i < params.length; i++) {
        if (params[i] instanceof String[] texts) {
          ps.setArray(i + 1, c.createArrayOf("text", texts));
        } else {
          ps.setObject(i + 1, params[i]);
        }
      }
      return ps;
    } catch (SQLException e) {
      ps.close();
      throw e;
    }
  }

  /** Binds {@code value}, or SQL NULL of type integer. */
  public static void setInteger(PreparedStatement statement, int index, Integer value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.INTEGER);
    } else {
      statement.setInt(index, value);
    }
  }

  /** {@code values} as a PostgreSQL text[]. */
  public static Array textArray(Connection connection, Collection<String> values)
      throws SQLException {
    return connection.createArrayOf("text", values.toArray());
  }

  private static void rollback(Connection connection, Exception cause) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  /** A failed unit of work: the database's error, unchecked, with its SQLState in the message. */
  public static final class DatabaseException extends RuntimeException {
    public DatabaseException(SQLException cause) {
      super(cause.getMessage() + " (SQLState " + cause.getSQLState() + ")", cause);
    }
  }
}
