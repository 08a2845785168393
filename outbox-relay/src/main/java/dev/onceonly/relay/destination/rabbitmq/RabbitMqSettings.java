package dev.onceonly.relay.destination.rabbitmq;

import dev.onceonly.model.BrokerNodes;
import dev.onceonly.relay.config.DestinationConfig.RabbitMqConfig;
import dev.onceonly.relay.destination.Template;
import dev.onceonly.tls.CaTrust;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A RabbitMQ destination's settings, checked at start: {@link #of} refuses anything the relay could
 * not publish with (with TLS, a broker it does not trust: {@link RabbitMqTlsCheck}), with a message
 * naming the key ({@code key} turns {@code exchange} into {@code
 * relay.destinations."<name>".rabbitmq.exchange}). The password is never part of a message.
 */
public record RabbitMqSettings(
    List<BrokerNodes.Node> nodes,
    String username,
    String password,
    String virtualHost,
    Optional<CaTrust> tls,
    String exchange,
    Template routingKey,
    boolean persistent,
    boolean mandatory,
    Duration connectTimeout,
    Duration confirmTimeout) {

  /**
   * The settings {@code config} describes, or an {@link IllegalArgumentException} naming the key.
   */
  public static RabbitMqSettings of(RabbitMqConfig config, UnaryOperator<String> key) {
    List<BrokerNodes.Node> nodes;
    if (config.addresses().isPresent() && !config.addresses().get().isBlank()) {
      nodes = BrokerNodes.parse(config.addresses().get(), key.apply("addresses"));
    } else {
      if (config.host().isBlank()) {
        throw new IllegalArgumentException(key.apply("host") + " must name the broker");
      }
      if (config.port() < 1 || config.port() > 65_535) {
        throw new IllegalArgumentException(
            key.apply("port") + " must be from 1 to 65535, was " + config.port());
      }
      nodes = List.of(new BrokerNodes.Node(config.host().strip(), config.port()));
    }
    String username = config.username().orElse("guest");
    String password =
        config
            .password()
            .or(() -> config.username().isEmpty() ? Optional.of("guest") : Optional.empty())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        key.apply("password")
                            + " is required with "
                            + key.apply("username")
                            + " (usually from a Secret)"));
    String exchange = config.exchange().orElse("").strip();
    if (exchange.length() > 255 || !exchange.matches("[A-Za-z0-9_.:-]*")) {
      throw new IllegalArgumentException(
          key.apply("exchange")
              + " must be an exchange name (letters, digits, _ . : -, at most 255), was '"
              + exchange
              + "'");
    }
    Template routingKey;
    try {
      routingKey = Template.parse(config.routingKey());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          key.apply("routing-key") + " is not a valid template: " + e.getMessage());
    }
    positive(config.connectTimeout(), key.apply("connect-timeout"));
    positive(config.confirmTimeout(), key.apply("confirm-timeout"));
    RabbitMqSettings settings =
        new RabbitMqSettings(
            nodes,
            username,
            password,
            config.virtualHost(),
            trust(config, key),
            exchange,
            routingKey,
            config.persistent(),
            config.mandatory(),
            config.connectTimeout(),
            config.confirmTimeout());
    settings.tls().ifPresent(trust -> RabbitMqTlsCheck.requireTrusted(settings, trust, key));
    return settings;
  }

  /** Where it publishes, for logs: never the password. */
  public String target() {
    return "publish to "
        + (exchange.isEmpty() ? "the default exchange" : "exchange " + exchange)
        + " routing key "
        + routingKey.text()
        + " on amqp"
        + (tls.isPresent() ? "s" : "")
        + "://"
        + username
        + "@"
        + BrokerNodes.text(nodes)
        + "/"
        + virtualHost
        + (mandatory ? ", mandatory" : "")
        + (persistent ? ", persistent" : "");
  }

  /** Whom a TLS destination trusts; empty without TLS, where a CA file is a mistake. */
  private static Optional<CaTrust> trust(RabbitMqConfig config, UnaryOperator<String> key) {
    if (!config.tls()) {
      if (config.caFile().isPresent()) {
        throw new IllegalArgumentException(
            key.apply("ca-file") + " is set but " + key.apply("tls") + " is false");
      }
      return Optional.empty();
    }
    return Optional.of(CaTrust.of(config.caFile(), config.verifyHostname(), key.apply("ca-file")));
  }

  private static void positive(Duration duration, String key) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(key + " must be > 0, was " + duration);
    }
  }

  @Override
  public String toString() {
    return target();
  }
}
