package dev.onceonly.internal.operations;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.config.Config;

/**
 * In production the API must not run without a way to authenticate: no built-in users exist, so
 * either users come from the environment (a Kubernetes Secret) or OIDC is switched on. Otherwise
 * the service refuses to start and says what to set.
 */
@Singleton
public class CredentialsStartupCheck {

  static final String USERS_PREFIX = "quarkus.security.users.embedded.users.";

  private final Config config;

  public CredentialsStartupCheck(Config config) {
    this.config = config;
  }

  void onStart(@Observes StartupEvent event) {
    if (LaunchMode.current() != LaunchMode.NORMAL) {
      return;
    }
    boolean oidc =
        config.getOptionalValue("quarkus.oidc.tenant-enabled", Boolean.class).orElse(false);
    long users =
        StreamSupport.stream(config.getPropertyNames().spliterator(), false)
            .filter(name -> name.startsWith(USERS_PREFIX))
            .count();
    requireCredentials(oidc, users);
  }

  /** The decision, apart from where its inputs come from. */
  static void requireCredentials(boolean oidcEnabled, long configuredUsers) {
    if (!oidcEnabled && configuredUsers == 0) {
      throw new IllegalStateException(
          "no API users configured and OIDC is off: set QUARKUS_SECURITY_USERS_EMBEDDED_USERS_<NAME>"
              + " (hex SHA-512 of '<name>:onceonly:<password>') with"
              + " QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_<NAME>=outbox-viewer|outbox-admin,"
              + " or OIDC_ENABLED=true with OIDC_AUTH_SERVER_URL");
    }
  }
}
