package dev.onceonly.relay.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CredentialsCheckTest {

  @Test
  void refusesToStartWhenNobodyCouldLogInNamingTheVariablesToSet() {
    assertThat(CredentialsCheck.refusal(false, Set.of()))
        .hasValueSatisfying(
            message ->
                assertThat(message)
                    .contains("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_<NAME>")
                    .contains("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_<NAME>=outbox-admin")
                    .contains("\"<name>:onceonly:<password>\"")
                    .contains("OIDC_ENABLED=true"));
  }

  @Test
  void startsWithAUserOrWithOidc() {
    assertThat(CredentialsCheck.refusal(false, Set.of("ops"))).isEmpty();
    assertThat(CredentialsCheck.refusal(true, Set.of())).isEmpty();
  }

  @Test
  void usersComeFromPropertiesAndFromTheEnvironmentButNotFromOtherProfilesOrBlankHashes() {
    SmallRyeConfig config =
        new SmallRyeConfigBuilder()
            .withSources(
                new PropertiesConfigSource(
                    Map.of(
                        "quarkus.security.users.embedded.users.alice", "ab12",
                        "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPS", "cd34",
                        "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_EMPTY", " ",
                        "%test.quarkus.security.users.embedded.users.viewer", "ef56",
                        "quarkus.security.users.embedded.roles.bob", "outbox-admin"),
                    "test",
                    100))
            .build();

    assertThat(CredentialsCheck.users(config)).containsExactlyInAnyOrder("alice", "ops");
  }
}
