package dev.onceonly.relay.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FlywayVersionsTest {

  @Test
  void comparesPartByPartNumerically() {
    assertThat(FlywayVersions.atLeast("10", "2")).isTrue();
    assertThat(FlywayVersions.atLeast("2", "10")).isFalse();
    assertThat(FlywayVersions.atLeast("2.1", "2")).isTrue();
    assertThat(FlywayVersions.atLeast("2", "2.0")).isTrue();
    assertThat(FlywayVersions.atLeast("1.9", "2")).isFalse();
    assertThat(FlywayVersions.atLeast("3_1", "3.1")).isTrue();
  }
}
