package dev.onceonly.consumer.profiles;

import dev.onceonly.api.Delivery;
import dev.onceonly.api.IdempotentHandler;
import dev.onceonly.api.OnceOnlyConsumer;
import dev.onceonly.api.Outcome;
import dev.onceonly.consumer.events.ProfileEvents;
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
@OnceOnlyConsumer(
    name = "profiles",
    channel = "profiles",
    claim = false,
    decoder = ProfileEvents.class)
public class ProfileHandler implements IdempotentHandler<LoyaltyEvent> {

  private final ProfileRepository profiles;

  public ProfileHandler(ProfileRepository profiles) {
    this.profiles = profiles;
  }

  @Override
  public Outcome handle(LoyaltyEvent event, Delivery delivery) throws SQLException {
    CustomerProfileChanged change = (CustomerProfileChanged) event;
    boolean written =
        profiles.upsertIfNewer(
            change.customerId(), change.version(), change.tier(), change.email());
    return written ? Outcome.APPLIED : Outcome.DUPLICATE;
  }
}
