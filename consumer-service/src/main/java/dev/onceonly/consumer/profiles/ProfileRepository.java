package dev.onceonly.consumer.profiles;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** All SQL of {@code loyalty.customer_profiles}. */
@ApplicationScoped
public class ProfileRepository {

  static final String SQL_UPSERT =
      """
      INSERT INTO loyalty.customer_profiles (customer_id, version, tier, email)
      VALUES (?, ?, ?, ?)
      ON CONFLICT (customer_id) DO UPDATE
         SET version = EXCLUDED.version, tier = EXCLUDED.tier, email = EXCLUDED.email,
             updated_at = now()
       WHERE customer_profiles.version < EXCLUDED.version
      """;

  static final String SQL_FIND =
      """
      SELECT customer_id, version, tier, email FROM loyalty.customer_profiles WHERE customer_id = ?
      """;

  private final AgroalDataSource dataSource;

  public ProfileRepository(AgroalDataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Writes a version if it is newer than the stored one; false if it changed nothing. */
  public boolean upsertIfNewer(String customerId, long version, String tier, String email)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_UPSERT)) {
      ps.setString(1, customerId);
      ps.setLong(2, version);
      ps.setString(3, tier);
      ps.setString(4, email);
      return ps.executeUpdate() == 1;
    }
  }

  public Optional<Profile> find(String customerId) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_FIND)) {
      ps.setString(1, customerId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(
                new Profile(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4)))
            : Optional.empty();
      }
    }
  }

  /** A stored profile. */
  public record Profile(String customerId, long version, String tier, String email) {}
}
