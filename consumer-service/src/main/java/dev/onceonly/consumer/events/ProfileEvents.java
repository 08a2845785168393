package dev.onceonly.consumer.events;

import dev.onceonly.model.EventType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumSet;

/** What consumer {@code profiles} reads: profile changes. */
@ApplicationScoped
public class ProfileEvents extends EventDecoder {

  public ProfileEvents() {
    super("profiles", EnumSet.of(EventType.CUSTOMER_PROFILE_CHANGED));
  }
}
