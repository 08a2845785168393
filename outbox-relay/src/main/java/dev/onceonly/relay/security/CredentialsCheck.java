package dev.onceonly.relay.security;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Refuses to start in production (a packaged app, {@link LaunchMode#NORMAL}) when nobody could log
 * in: no embedded user and OIDC off. There are no default credentials to fall back on.
 */
@ApplicationScoped
public class CredentialsCheck {

  static final String USERS_PREFIX = "quarkus.security.users.embedded.users.";
  static final String USERS_ENV_PREFIX = "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_";

  void onStart(@Observes @Priority(1) StartupEvent event) {
    if (LaunchMode.current() != LaunchMode.NORMAL) {
      return;
    }
    Config config = ConfigProvider.getConfig();
    boolean oidc = flag(config, "quarkus.oidc.tenant-enabled");
    Set<String> users =
        flag(config, "quarkus.security.users.embedded.enabled") ? users(config) : Set.of();
    refusal(oidc, users)
        .ifPresent(
            message -> {
              throw new IllegalStateException(message);
            });
  }

  /** Why the service must not start, or empty when someone can log in. */
  static Optional<String> refusal(boolean oidcEnabled, Set<String> users) {
    if (oidcEnabled || !users.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "no credentials configured and OIDC is off, so nobody could use the outbox API: set"
            + " QUARKUS_SECURITY_USERS_EMBEDDED_USERS_<NAME>=<hex SHA-512 of"
            + " \"<name>:onceonly:<password>\"> and"
            + " QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_<NAME>=outbox-admin (or outbox-viewer),"
            + " e.g. from a Kubernetes Secret, or set OIDC_ENABLED=true with"
            + " OIDC_AUTH_SERVER_URL and OIDC_CLIENT_ID");
  }

  /** Names of embedded users with a non-blank password hash, from properties or environment. */
  static Set<String> users(Config config) {
    Set<String> users = new TreeSet<>();
    for (String name : config.getPropertyNames()) {
      String user = null;
      if (name.startsWith(USERS_PREFIX)) {
        user = name.substring(USERS_PREFIX.length());
      } else if (name.startsWith(USERS_ENV_PREFIX)) {
        user = name.substring(USERS_ENV_PREFIX.length()).toLowerCase(Locale.ROOT);
      }
      if (user != null
          && !user.isBlank()
          && config.getOptionalValue(name, String.class).filter(v -> !v.isBlank()).isPresent()) {
        users.add(user);
      }
    }
    return users;
  }

  private static boolean flag(Config config, String name) {
    return config.getOptionalValue(name, Boolean.class).orElse(false);
  }
}
