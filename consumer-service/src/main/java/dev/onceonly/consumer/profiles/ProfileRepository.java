package dev.onceonly.consumer.profiles;

import dev.onceonly.runtime.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
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

  private final Jdbc jdbc;

  public ProfileRepository(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  /** Writes a version if it is newer than the stored one; false if it changed nothing. */
  public boolean upsertIfNewer(String customerId, long version, String tier, String email)
      throws SQLException {
    return jdbc.update(SQL_UPSERT, customerId, version, tier, email) == 1;
  }

  public Optional<Profile> find(String customerId) throws SQLException {
    return jdbc.one(
        SQL_FIND,
        rs -> new Profile(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4)),
        customerId);
  }

  /** A stored profile. */
  public record Profile(String customerId, long version, String tier, String email) {}
}
