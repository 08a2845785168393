package dev.onceonly.relay.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.support.Configs;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A destination is configuration, from properties or from environment variables alone, and a
 * destination configured wrong stops the start with a message that names the key at fault (and
 * never the secret).
 */
class DestinationsTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aDestinationDeclaredByEnvironmentVariablesAloneIsBuilt() {
    RelayConfig config =
        Configs.fromEnvironment(
            Map.of(
                "RELAY_DESTINATIONS__LABELS__TYPE", "http",
                "RELAY_DESTINATIONS__LABELS__HTTP_URL",
                    "https://labels.example.com/v1/labels/{payload.orderId}",
                "RELAY_DESTINATIONS__LABELS__HTTP_METHOD", "PUT",
                "RELAY_DESTINATIONS__LABELS__HTTP_READ_TIMEOUT", "4s",
                "RELAY_DESTINATIONS__LABELS__HTTP_AUTH_TOKEN", "from-a-secret",
                "RELAY_DESTINATIONS__LABELS__MAX_ATTEMPTS", "7"));

    Destinations destinations = new Destinations(config, vertx);

    assertThat(destinations.names()).containsExactly("labels");
    Destinations.Route route = destinations.route("labels").orElseThrow();
    assertThat(route.destination().target())
        .isEqualTo("PUT https://labels.example.com/v1/labels/{payload.orderId}");
    assertThat(route.policy().maxAttempts()).isEqualTo(7);
    assertThat(route.longestCall()).isEqualTo(Duration.ofSeconds(6));
  }

  /**
   * The name of a destination declared by environment variables alone is the variable's, in lower
   * case, with {@code _} read as {@code .} (SmallRye cannot tell an underscore of the name from a
   * separator); docs/destinations.md says to declare names with {@code _} in a properties file.
   */
  @Test
  void anEnvironmentOnlyNameIsLowerCaseWithUnderscoresReadAsDots() {
    RelayConfig config =
        Configs.fromEnvironment(
            Map.of(
                "RELAY_DESTINATIONS__LABELS__HTTP_URL", "https://labels.example.com/v1",
                "RELAY_DESTINATIONS__SHIPPING_LABEL__HTTP_URL", "https://labels.example.com/v2"));

    assertThat(new Destinations(config, vertx).names()).containsExactly("labels", "shipping.label");
  }

  /**
   * A destination declared in a properties file takes the rest of its keys from the environment
   * (the usual way for a Secret's value), and the variables' echo as a second, dotted name (see
   * {@link Destinations#environmentEchoes}) is no destination of its own.
   */
  @Test
  void environmentVariablesSetKeysOfADestinationDeclaredInProperties() {
    RelayConfig config =
        Configs.fromPropertiesAndEnvironment(
            Map.of(
                "relay.destinations.\"send_receipt\".http.url", "http://props.example.com/x",
                "relay.destinations.\"send_receipt\".max-attempts", "3"),
            Map.of(
                "RELAY_DESTINATIONS__SEND_RECEIPT__HTTP_URL", "http://env.example.com/y",
                "RELAY_DESTINATIONS__SEND_RECEIPT__HTTP_AUTH_TOKEN", "from-a-secret"));

    Destinations destinations = new Destinations(config, vertx);

    assertThat(config.destinations()).containsKeys("send_receipt", "send.receipt");
    assertThat(destinations.names()).containsExactly("send_receipt");
    Destinations.Route route = destinations.route("send_receipt").orElseThrow();
    assertThat(route.destination().target()).isEqualTo("POST http://env.example.com/y");
    assertThat(route.policy().maxAttempts()).isEqualTo(3);
  }

  @Test
  void everyDestinationConfiguredWrongIsNamedInOneMessage() {
    Map<String, String> properties = new HashMap<>();
    properties.put("relay.destinations.\"good\".http.url", "http://h:1/x");
    properties.put("relay.destinations.\"braces\".http.url", "http://h:1/x/{payload.orderId");
    properties.put("relay.destinations.\"nosecret\".http.url", "http://h:1/x");
    properties.put("relay.destinations.\"nosecret\".http.auth.type", "bearer");
    properties.put("relay.destinations.\"fax\".type", "fax");
    properties.put("relay.destinations.\"nourl\".max-attempts", "3");
    properties.put("relay.destinations.\"hostile\".http.url", "http://{payload.host}/x");
    properties.put("relay.destinations.\"ftp\".http.url", "ftp://h/x");
    properties.put("relay.destinations.\"verb\".http.url", "http://h:1/x");
    properties.put("relay.destinations.\"verb\".http.method", "DELETE");
    properties.put("relay.destinations.\"field\".http.url", "http://h:1/x/{order}");

    assertThatThrownBy(() -> new Destinations(Configs.fromProperties(properties), vertx))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("outbox destinations configured wrong: ")
        .hasMessageContaining(
            "relay.destinations.\"braces\".http.url is not a valid template: '{' at position 13"
                + " is not closed")
        .hasMessageContaining(
            "relay.destinations.\"nosecret\".http.auth.token is required for bearer authentication")
        .hasMessageContaining(
            "relay.destinations.\"fax\".type must be http, rabbitmq or kafka, was 'fax'")
        .hasMessageContaining("relay.destinations.\"nourl\".http.url is required for type http")
        .hasMessageContaining("relay.destinations.\"hostile\".http.url must name its host")
        .hasMessageContaining("relay.destinations.\"ftp\".http.url must be an http:// or https://")
        .hasMessageContaining("relay.destinations.\"verb\".http.method must be one of")
        .hasMessageContaining("unknown placeholder {order}")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\"good\""));
  }

  @Test
  void aRabbitMqDestinationIsCheckedAtStartToo() {
    Map<String, String> properties = new HashMap<>();
    properties.put("relay.destinations.\"events\".type", "rabbitmq");
    properties.put("relay.destinations.\"events\".rabbitmq.host", "broker");
    properties.put("relay.destinations.\"events\".rabbitmq.username", "relay");
    properties.put("relay.destinations.\"events\".rabbitmq.exchange", "orders");
    properties.put("relay.destinations.\"named\".type", "rabbitmq");
    properties.put("relay.destinations.\"named\".rabbitmq.exchange", "not an exchange");
    properties.put("relay.destinations.\"mixed\".type", "rabbitmq");
    properties.put("relay.destinations.\"mixed\".rabbitmq.exchange", "orders");
    properties.put("relay.destinations.\"mixed\".http.url", "http://h:1/x");
    properties.put("relay.destinations.\"keyed\".type", "rabbitmq");
    properties.put("relay.destinations.\"keyed\".rabbitmq.routing-key", "order.{payload.id");

    assertThatThrownBy(() -> new Destinations(Configs.fromProperties(properties), vertx))
        .hasMessageContaining(
            "relay.destinations.\"events\".rabbitmq.password is required with"
                + " relay.destinations.\"events\".rabbitmq.username")
        .hasMessageContaining("relay.destinations.\"named\".rabbitmq.exchange must be an exchange")
        .hasMessageContaining(
            "relay.destinations.\"mixed\".http.* is set but relay.destinations.\"mixed\".type"
                + " is rabbitmq")
        .hasMessageContaining("relay.destinations.\"keyed\".rabbitmq.routing-key is not a valid");
  }

  @Test
  void aRabbitMqDestinationDeclaredByTheEnvironmentPublishesAsConfigured() {
    RelayConfig config =
        Configs.fromEnvironment(
            Map.of(
                "RELAY_DESTINATIONS__EVENTS__TYPE", "rabbitmq",
                "RELAY_DESTINATIONS__EVENTS__RABBITMQ_HOST", "broker.example.com",
                "RELAY_DESTINATIONS__EVENTS__RABBITMQ_USERNAME", "relay",
                "RELAY_DESTINATIONS__EVENTS__RABBITMQ_PASSWORD", "from-a-secret",
                "RELAY_DESTINATIONS__EVENTS__RABBITMQ_EXCHANGE", "orders",
                "RELAY_DESTINATIONS__EVENTS__RABBITMQ_ROUTING_KEY", "order.{payload.status}"));

    Destinations.Route route = new Destinations(config, vertx).route("events").orElseThrow();

    assertThat(route.destination().target())
        .isEqualTo(
            "publish to exchange orders routing key order.{payload.status} on"
                + " amqp://relay@broker.example.com:5672//, mandatory, persistent")
        .doesNotContain("from-a-secret");
    assertThat(route.longestCall()).isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void aSecretIsNeverPartOfTheMessage() {
    Map<String, String> properties = new HashMap<>();
    properties.put("relay.destinations.\"d\".http.url", "http://h:1/x");
    properties.put("relay.destinations.\"d\".http.auth.token", "tok-very-secret");
    properties.put("relay.destinations.\"d\".http.auth.header-value", "key-very-secret");

    assertThatThrownBy(() -> new Destinations(Configs.fromProperties(properties), vertx))
        .hasMessageContaining(
            "relay.destinations.\"d\".http.auth.header-value is set but"
                + " relay.destinations.\"d\".http.auth.type is bearer")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("very-secret"));
  }

  @Test
  void aBaseUrlEndingInASlashBeforeThePathGivesOneSlash() {
    Map<String, String> properties =
        Map.of(
            "relay.destinations.\"send_receipt\".http.url",
            "https://mail.example.com//v1/receipts");

    Destinations destinations = new Destinations(Configs.fromProperties(properties), vertx);

    assertThat(destinations.route("send_receipt").orElseThrow().destination().target())
        .isEqualTo("POST https://mail.example.com/v1/receipts");
  }
}
