package dev.onceonly.relay.destination.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.relay.config.DestinationConfig.SigningConfig;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.support.Configs;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Signatures as the Standard Webhooks specification defines them, checked against the
 * specification's own example (its reference libraries' test: secret, id, timestamp, body and the
 * signature they must give), not against this class's idea of it.
 */
class WebhookSignerTest {

  @Test
  void theSpecificationsExampleGivesItsSignature() {
    WebhookSigner signer = signer(Map.of("secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));

    assertThat(
            signer.signature(
                "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", "{\"test\": 2432232314}"))
        .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  @Test
  void duringARotationEachCallCarriesTwoSignatures() {
    WebhookSigner signer =
        signer(
            Map.of(
                "secret",
                "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                "previous-secret",
                "whsec_" + "A".repeat(32)));

    String[] signatures =
        signer
            .signature("msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", "{\"test\": 2432232314}")
            .split(" ");

    assertThat(signatures).hasSize(2);
    assertThat(signatures[0]).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    assertThat(signatures[1]).startsWith("v1,").isNotEqualTo(signatures[0]);
  }

  @Test
  void theIdIsTheSameForEveryAttemptAndHasNoDot() {
    String id = WebhookSigner.id("oo1:hooks:c:order-completed:A.7");

    assertThat(id).isEqualTo(WebhookSigner.id("oo1:hooks:c:order-completed:A.7"));
    assertThat(id).startsWith("msg_").doesNotContain(".").hasSize(4 + 43);
    assertThat(id).isNotEqualTo(WebhookSigner.id("oo1:hooks:c:order-completed:A.8"));
  }

  @Test
  void signingIsOnWithASecretOrWhenAskedForAndThenNeedsOne() {
    assertThat(WebhookSigner.of(config(Map.of()), k -> k)).isEmpty();
    assertThat(
            WebhookSigner.of(
                config(Map.of("secret", "whsec_" + "A".repeat(32), "enabled", "false")), k -> k))
        .isEmpty();
    assertThatThrownBy(
            () -> WebhookSigner.of(config(Map.of("enabled", "true")), k -> "signing." + k))
        .hasMessageStartingWith("signing.secret is required when signing is enabled");
  }

  @Test
  void aMalformedSecretIsRefusedWithoutShowingIt() {
    assertThatThrownBy(() -> signer(Map.of("secret", "not-a-webhook-secret")))
        .hasMessage("secret must be whsec_<base64 of the secret's bytes> (Standard Webhooks)");
    assertThatThrownBy(() -> signer(Map.of("secret", "whsec_%%%%")))
        .hasMessage("secret is not base64 after whsec_");
    assertThatThrownBy(() -> signer(Map.of("secret", "whsec_c2hvcnQ=")))
        .hasMessage("secret must hold 24 to 64 bytes (Standard Webhooks), holds 5");
  }

  private static WebhookSigner signer(Map<String, String> signing) {
    Optional<WebhookSigner> signer = WebhookSigner.of(config(signing), k -> k);
    assertThat(signer).isPresent();
    return signer.orElseThrow();
  }

  private static SigningConfig config(Map<String, String> signing) {
    Map<String, String> properties = new HashMap<>();
    properties.put(Destinations.key("hooks", "http.url"), "http://h:1/hooks");
    signing.forEach((k, v) -> properties.put(Destinations.key("hooks", "http.signing." + k), v));
    return Configs.fromProperties(properties)
        .destinations()
        .get("hooks")
        .http()
        .orElseThrow()
        .signing();
  }
}
