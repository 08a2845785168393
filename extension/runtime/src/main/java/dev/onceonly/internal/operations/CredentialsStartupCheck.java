package dev.onceonly.internal.operations;

import dev.onceonly.web.Credentials;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/**
 * With the operator API on, a packaged service (the {@code prod} launch mode) refuses to start when
 * nobody could log in to it ({@link Credentials}).
 */
@Singleton
public class CredentialsStartupCheck {

  private final Config config;

  public CredentialsStartupCheck(Config config) {
    this.config = config;
  }

  void onStart(@Observes @Priority(1) StartupEvent event) {
    if (LaunchMode.current() != LaunchMode.NORMAL) {
      return;
    }
    Credentials.refusal(config, "the OnceOnly operator API")
        .ifPresent(
            message -> {
              throw new IllegalStateException(message);
            });
  }
}
