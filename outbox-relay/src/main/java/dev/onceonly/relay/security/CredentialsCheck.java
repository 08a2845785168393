package dev.onceonly.relay.security;

import dev.onceonly.web.Credentials;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.Config;

/**
 * Refuses to start in production (a packaged app, {@link LaunchMode#NORMAL}) when nobody could log
 * in to the outbox API and console: the rule the services share ({@link Credentials}).
 */
@ApplicationScoped
public class CredentialsCheck {

  private final Config config;

  public CredentialsCheck(Config config) {
    this.config = config;
  }

  void onStart(@Observes @Priority(1) StartupEvent event) {
    if (LaunchMode.current() != LaunchMode.NORMAL) {
      return;
    }
    Credentials.refusal(config, "the outbox API")
        .ifPresent(
            message -> {
              throw new IllegalStateException(message);
            });
  }
}
