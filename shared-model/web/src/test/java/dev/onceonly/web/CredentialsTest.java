package dev.onceonly.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CredentialsTest {

  @Test
  void refusesToStartWhenNobodyCouldLogInNamingTheVariablesToSet() {
    assertThat(Credentials.refusal(false, Set.of(), "the outbox API"))
        .hasValueSatisfying(
            message ->
                assertThat(message)
                    .contains("nobody could use the outbox API")
                    .contains("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_<NAME>")
                    .contains("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_<NAME>=outbox-admin")
                    .contains("\"<name>:onceonly:<password>\"")
                    .contains("OIDC_ENABLED=true"));
  }

  @Test
  void startsWithAUserOrWithOidc() {
    assertThat(Credentials.refusal(false, Set.of("ops"), "x")).isEmpty();
    assertThat(Credentials.refusal(true, Set.of(), "x")).isEmpty();
  }

  @Test
  void usersComeFromPropertiesAndFromTheEnvironmentButNotFromOtherProfilesOrBlankHashes() {
    assertThat(Credentials.users(config(true))).containsExactlyInAnyOrder("alice", "ops");
  }

  @Test
  void embeddedUsersSwitchedOffCountForNothing() {
    assertThat(Credentials.refusal(config(false), "the outbox API")).isPresent();
    assertThat(Credentials.refusal(config(true), "the outbox API")).isEmpty();
  }

  private static SmallRyeConfig config(boolean embeddedEnabled) {
    return new SmallRyeConfigBuilder()
        .withSources(
            new PropertiesConfigSource(
                Map.of(
                    "quarkus.security.users.embedded.enabled", String.valueOf(embeddedEnabled),
                    "quarkus.security.users.embedded.users.alice", "ab12",
                    "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPS", "cd34",
                    "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_EMPTY", " ",
                    "%test.quarkus.security.users.embedded.users.viewer", "ef56",
                    "quarkus.security.users.embedded.roles.bob", "outbox-admin"),
                "test",
                100))
        .build();
  }
}
