package dev.onceonly.consumer.security;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CredentialsStartupCheckTest {

  @Test
  void productionWithoutUsersOrOidcRefusesToStart() {
    assertThatThrownBy(() -> CredentialsStartupCheck.requireCredentials(false, 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_<NAME>")
        .hasMessageContaining("OIDC_ENABLED");
  }

  @Test
  void configuredUsersOrOidcAreEnough() {
    assertThatCode(() -> CredentialsStartupCheck.requireCredentials(false, 1))
        .doesNotThrowAnyException();
    assertThatCode(() -> CredentialsStartupCheck.requireCredentials(true, 0))
        .doesNotThrowAnyException();
  }
}
