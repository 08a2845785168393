package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.model.ProductionEnvironment.Requirement;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ProductionEnvironmentTest {

  private static final String PROPERTIES =
      """
      quarkus.datasource.jdbc.url=${DB_URL:jdbc:postgresql://127.0.0.1:5432/onceonly}
      %prod.quarkus.datasource.jdbc.url=${DB_URL}
      %prod.quarkus.datasource.password=${DB_PASSWORD:}
      %prod.relay.kinds."send_receipt".base-url=${RECEIPTS_URL:${PROVIDER_URL}}
      %prod.relay.kinds."issue_payout".base-url=${PAYOUTS_URL:${PROVIDER_URL:http://x}}
      %prod.quarkus.datasource.username=${quarkus.datasource.other}
      %prod.address=${HOST}:${PORT:5672}/${VHOST}
      %test.quarkus.datasource.jdbc.url=${TEST_URL}
      """;

  @Test
  void aProdVariableWithoutDefaultIsRequiredWithItsFallbacks() throws IOException {
    assertThat(requirements())
        .containsExactly(
            new Requirement("address", List.of("HOST")),
            new Requirement("address", List.of("VHOST")),
            new Requirement("quarkus.datasource.jdbc.url", List.of("DB_URL")),
            new Requirement(
                "relay.kinds.\"send_receipt\".base-url", List.of("RECEIPTS_URL", "PROVIDER_URL")));
  }

  @Test
  void anyAlternativeOrTheKeyItselfSatisfiesARequirement() throws IOException {
    Map<String, String> env =
        Map.of(
            "PROVIDER_URL", "http://sandbox:8089",
            "QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://db/x",
            "HOST", " ");
    Map<String, String> props = Map.of("VHOST", "/");
    List<Requirement> missing =
        ProductionEnvironment.missing(requirements(), lookup(env), lookup(props));

    assertThat(missing).extracting(Requirement::key).containsExactly("address");
    assertThat(missing.get(0).variables()).containsExactly("HOST");
  }

  @Test
  void theRefusalNamesEveryMissingVariable() throws IOException {
    String message =
        ProductionEnvironment.refusal(
            "outbox-relay", ProductionEnvironment.missing(requirements(), k -> null, k -> null));

    assertThat(message)
        .startsWith("outbox-relay cannot start")
        .contains("DB_URL for quarkus.datasource.jdbc.url")
        .contains("RECEIPTS_URL (or PROVIDER_URL) for relay.kinds.\"send_receipt\".base-url")
        .contains("HOST for address", "VHOST for address")
        .doesNotContain("DB_PASSWORD", "PAYOUTS_URL", "TEST_URL");
  }

  @Test
  void prodIsActiveUnlessAnotherProfileIsNamed() {
    assertThat(ProductionEnvironment.prodProfileActive(k -> null, k -> null)).isTrue();
    assertThat(
            ProductionEnvironment.prodProfileActive(
                lookup(Map.of("QUARKUS_PROFILE", "staging")), k -> null))
        .isFalse();
    assertThat(
            ProductionEnvironment.prodProfileActive(
                lookup(Map.of("QUARKUS_PROFILE", "staging")),
                lookup(Map.of("quarkus.profile", "prod,kubernetes"))))
        .isTrue();
  }

  @Test
  void environmentNamesFollowSmallRyeConfig() {
    assertThat(ProductionEnvironment.environmentName("relay.kinds.\"send_receipt\".base-url"))
        .isEqualTo("RELAY_KINDS__SEND_RECEIPT__BASE_URL");
  }

  private static List<Requirement> requirements() throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(PROPERTIES));
    return ProductionEnvironment.requirements(properties);
  }

  private static UnaryOperator<String> lookup(Map<String, String> values) {
    return values::get;
  }
}
