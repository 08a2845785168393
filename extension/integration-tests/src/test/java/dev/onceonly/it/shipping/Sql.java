package dev.onceonly.it.shipping;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** The one count query the tests read the database with. */
final class Sql {

  private Sql() {}

  /** The single number {@code sql} answers with {@code params} bound, on {@code c}. */
  static long count(Connection c, String sql, Object... params) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
