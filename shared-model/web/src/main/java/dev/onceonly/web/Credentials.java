package dev.onceonly.web;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.Config;

/**
 * Whether anybody could log in to an operator API: an embedded user with a password hash (from
 * properties or the environment, e.g. a Kubernetes Secret) or OIDC switched on. There are no
 * default credentials to fall back on, so a packaged service without either refuses to start,
 * saying what to set. Each service calls {@link #refusal} at start; this class is no bean, so that
 * a service that adds no operator API is never refused.
 */
public final class Credentials {

  static final String USERS_PREFIX = "quarkus.security.users.embedded.users.";
  static final String USERS_ENV_PREFIX = "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_";

  private Credentials() {}

  /** Why a service with an operator API must not start, or empty when someone can log in. */
  public static Optional<String> refusal(Config config, String api) {
    boolean oidc = flag(config, "quarkus.oidc.tenant-enabled");
    Set<String> users =
        flag(config, "quarkus.security.users.embedded.enabled") ? users(config) : Set.of();
    return refusal(oidc, users, api);
  }

  /** The decision, apart from where its inputs come from. */
  static Optional<String> refusal(boolean oidcEnabled, Set<String> users, String api) {
    if (oidcEnabled || !users.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "no credentials configured and OIDC is off, so nobody could use "
            + api
            + ": set QUARKUS_SECURITY_USERS_EMBEDDED_USERS_<NAME>=<hex SHA-512 of"
            + " \"<name>:onceonly:<password>\"> and"
            + " QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_<NAME>="
            + Roles.ADMIN
            + " (or "
            + Roles.VIEWER
            + "), e.g. from a Kubernetes Secret, or set OIDC_ENABLED=true with"
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
