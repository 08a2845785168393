package dev.onceonly.internal.db;

import dev.onceonly.internal.config.OnceOnlyConfig;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs the repositories' SQL on the caller's transaction (inside one, Agroal hands back the
 * connection enlisted in it): parameters bound in order (a {@code String[]} as {@code text[]}),
 * rows mapped by the caller. Statements name the platform's schema {@value #SCHEMA}, replaced by
 * the configured one ({@code quarkus.onceonly.schema}) once per statement text.
 */
@Singleton
public class Jdbc {

  /** Where a statement names the platform's schema. */
  public static final String SCHEMA = "{schema}";

  /** Maps the current row of a result set. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet row) throws SQLException;
  }

  private final AgroalDataSource dataSource;
  private final String schema;
  private final Map<String, String> statements = new ConcurrentHashMap<>();

  @Inject
  public Jdbc(AgroalDataSource dataSource, OnceOnlyConfig config) {
    this(dataSource, config.schema());
  }

  public Jdbc(AgroalDataSource dataSource, String schema) {
    this.dataSource = dataSource;
    this.schema = schema;
  }

  /** The platform's schema. */
  public String schema() {
    return schema;
  }

  /** {@code sql} with the configured schema in place of {@value #SCHEMA}. */
  public String sql(String sql) {
    return statements.computeIfAbsent(sql, text -> text.replace(SCHEMA, schema));
  }

  /** The data source the statements run on. */
  public AgroalDataSource dataSource() {
    return dataSource;
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

  private PreparedStatement prepare(Connection c, String sql, Object... params)
      throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql(sql));
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
