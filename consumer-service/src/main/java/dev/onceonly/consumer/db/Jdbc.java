package dev.onceonly.consumer.db;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs the repositories' SQL on the caller's transaction (inside one, Agroal hands back the
 * connection enlisted in it): parameters bound in order (a {@code String[]} as {@code text[]}),
 * rows mapped by the caller.
 */
@ApplicationScoped
public class Jdbc {

  /** Maps the current row of a result set. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet row) throws SQLException;
  }

  private final AgroalDataSource dataSource;

  public Jdbc(AgroalDataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Executes an insert, update or delete; returns the row count. */
  public int update(String sql, Object... params) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = prepare(c, sql, params)) {
      return ps.executeUpdate();
    }
  }

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

  public <T> Optional<T> one(String sql, RowMapper<T> mapper, Object... params)
      throws SQLException {
    List<T> rows = list(sql, mapper, params);
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  private static PreparedStatement prepare(Connection c, String sql, Object... params)
      throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    try {
      for (int i = 0; i < params.length; i++) {
        if (params[i] instanceof String[] texts) {
          ps.setArray(i + 1, c.createArrayOf("text", texts)); // a text[] parameter
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
}
