package dev.onceonly.consumer.profiles;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.consumer.processing.MessageEffect;
import dev.onceonly.model.CustomerProfileChanged;
import dev.onceonly.model.LoyaltyEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;

/**
 * Consumer {@code profiles}: a version-guarded upsert is idempotent and tolerates reordering by
 * itself, so it takes no claim (ARCHITECTURE.md §2). An older or equal version changes nothing and
 * counts as a duplicate.
 */
@ApplicationScoped
public class ProfileEffect implements MessageEffect {

  private final ProfileRepository profiles;

  public ProfileEffect(ProfileRepository profiles) {
    this.profiles = profiles;
  }

  @Override
  public ConsumerName consumer() {
    return ConsumerName.PROFILES;
  }

  @Override
  public boolean needsClaim() {
    return false;
  }

  @Override
  public Outcome apply(LoyaltyEvent event, boolean claimedNow) throws SQLException {
    CustomerProfileChanged change = (CustomerProfileChanged) event;
    boolean written =
        profiles.upsertIfNewer(
            change.customerId(), change.version(), change.tier(), change.email());
    return written ? Outcome.APPLIED : Outcome.DUPLICATE;
  }
}
