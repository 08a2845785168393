package dev.onceonly.relay.destination;

import dev.onceonly.relay.config.DestinationConfig;
import dev.onceonly.relay.config.DestinationConfig.BackoffConfig;
import dev.onceonly.relay.config.DestinationConfig.BreakerConfig;
import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.destination.http.HttpDestination;
import dev.onceonly.relay.destination.http.HttpSettings;
import dev.onceonly.relay.destination.kafka.KafkaDestination;
import dev.onceonly.relay.destination.kafka.KafkaSettings;
import dev.onceonly.relay.destination.rabbitmq.RabbitMqDestination;
import dev.onceonly.relay.destination.rabbitmq.RabbitMqSettings;
import dev.onceonly.relay.isolation.Breaker;
import dev.onceonly.relay.isolation.TokenBucket;
import dev.onceonly.relay.retry.Backoff;
import dev.onceonly.relay.retry.RetryPolicy;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Every destination configured under {@code relay.destinations}, built and checked at start: a
 * destination configured wrong (a bad URL template, a missing secret, an unknown type) stops the
 * relay with one message naming each key at fault. Rows of a destination not configured here are
 * never leased: they wait, their attempts untouched, until a relay that knows it delivers them.
 */
@ApplicationScoped
public class Destinations {

  private static final Logger LOG = Logger.getLogger(Destinations.class);

  /** What a destination's name may be: it is stored in {@code outbox.kind} and used in metrics. */
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,100}");

  /**
   * A destination, the policy that judges its results, how long one call may take, and its limits
   * in one relay: calls at once, its circuit breaker, its rate limit (null when none).
   */
  public record Route(
      String name,
      Destination destination,
      RetryPolicy policy,
      Duration longestCall,
      int maxInFlight,
      Breaker breaker,
      TokenBucket rateLimit) {}

  private final Map<String, Route> routes = new TreeMap<>();

  public Destinations(RelayConfig config, Vertx vertx) {
    ErrorBodies errorBodies = new ErrorBodies(config.operations().redactFields());
    List<String> problems = new ArrayList<>();
    Set<String> echoes = environmentEchoes(config.destinations().keySet());
    config
        .destinations()
        .forEach(
            (name, destination) -> {
              if (echoes.contains(name)) {
                return;
              }
              try {
                routes.put(name, route(name, destination, config, vertx, errorBodies));
              } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
              }
            });
    if (!problems.isEmpty()) {
      routes.values().forEach(r -> r.destination().close());
      throw new IllegalStateException(
          "outbox destinations configured wrong: " + String.join("; ", problems));
    }
  }

  /** The destinations this relay leases rows for; rows of any other stay untouched. */
  public Set<String> names() {
    return routes.keySet();
  }

  public Optional<Route> route(String name) {
    return Optional.ofNullable(routes.get(name));
  }

  public List<Route> all() {
    return List.copyOf(routes.values());
  }

  /**
   * Names that only echo another destination's environment variables. SmallRye reads {@code
   * RELAY_DESTINATIONS__SEND_RECEIPT__HTTP_URL} twice: as a key of {@code "send_receipt"} when that
   * destination is declared elsewhere (its value lands there), and as a key of a map entry of its
   * own, named in lower case with {@code _} read as {@code .}: {@code "send.receipt"}. That second
   * entry is no destination: left in, it would stop the start for a missing URL (an environment
   * variable with a secret alone) or lease rows nobody writes.
   */
  static Set<String> environmentEchoes(Set<String> names) {
    Set<String> echoes = new TreeSet<>();
    for (String name : names) {
      String echo = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", ".");
      if (!echo.equals(name) && names.contains(echo)) {
        echoes.add(echo);
      }
    }
    return echoes;
  }

  /** {@code relay.destinations."<name>".<suffix>}, as messages name a key. */
  public static String key(String name, String suffix) {
    return "relay.destinations.\"" + name + "\"." + suffix;
  }

  private static Route route(
      String name,
      DestinationConfig destination,
      RelayConfig config,
      Vertx vertx,
      ErrorBodies errorBodies) {
    UnaryOperator<String> key = suffix -> key(name, suffix);
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "relay.destinations.\""
              + name
              + "\": a destination's name may hold letters, digits and _ . : - (1 to 100)");
    }
    RetryPolicy policy = policy(destination, config, key);
    int maxInFlight = destination.maxInFlight().orElse(config.maxInFlight());
    if (maxInFlight < 1) {
      throw new IllegalArgumentException(
          key.apply("max-in-flight") + " must be >= 1, was " + maxInFlight);
    }
    TokenBucket rate = rateLimit(destination, key);
    String type = destination.type().strip().toLowerCase(Locale.ROOT);
    Destination made;
    Duration longestCall;
    switch (type) {
      case "http" -> {
        DestinationConfig.HttpConfig http =
            destination
                .http()
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            key.apply("http.url") + " is required for type http"));
        HttpSettings settings = HttpSettings.of(http, s -> key.apply("http." + s));
        onlyGroup(destination, "http", key);
        longestCall = settings.connectTimeout().plus(settings.readTimeout());
        made = new HttpDestination(name, settings, vertx, maxInFlight, errorBodies);
      }
      case "rabbitmq" -> {
        DestinationConfig.RabbitMqConfig rabbit =
            destination
                .rabbitmq()
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            key.apply("rabbitmq.*")
                                + " is required for type rabbitmq (at least rabbitmq.host)"));
        RabbitMqSettings settings = RabbitMqSettings.of(rabbit, s -> key.apply("rabbitmq." + s));
        onlyGroup(destination, "rabbitmq", key);
        longestCall = settings.connectTimeout().plus(settings.confirmTimeout());
        made = new RabbitMqDestination(name, settings);
      }
      case "kafka" -> {
        DestinationConfig.KafkaConfig kafka =
            destination
                .kafka()
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            key.apply("kafka.bootstrap-servers")
                                + " and "
                                + key.apply("kafka.topic")
                                + " are required for type kafka"));
        KafkaSettings settings = KafkaSettings.of(kafka, s -> key.apply("kafka." + s));
        onlyGroup(destination, "kafka", key);
        longestCall = settings.connectTimeout().plus(settings.sendTimeout());
        made = new KafkaDestination(name, settings);
      }
      default ->
          throw new IllegalArgumentException(
              key.apply("type")
                  + " must be http, rabbitmq or kafka, was '"
                  + destination.type()
                  + "'");
    }
    try {
      return new Route(
          name,
          made,
          policy,
          longestCall,
          maxInFlight,
          breaker(name, destination.breaker(), longestCall, key),
          rate);
    } catch (IllegalArgumentException e) {
      made.close();
      throw e;
    }
  }

  /**
   * Settings of another type's group are a mistake (a type set wrong, or a key in the wrong place).
   */
  private static void onlyGroup(
      DestinationConfig destination, String type, UnaryOperator<String> key) {
    if (!type.equals("http") && destination.http().isPresent()) {
      throw new IllegalArgumentException(
          key.apply("http.*") + " is set but " + key.apply("type") + " is " + type);
    }
    if (!type.equals("rabbitmq") && destination.rabbitmq().isPresent()) {
      throw new IllegalArgumentException(
          key.apply("rabbitmq.*") + " is set but " + key.apply("type") + " is " + type);
    }
    if (!type.equals("kafka") && destination.kafka().isPresent()) {
      throw new IllegalArgumentException(
          key.apply("kafka.*") + " is set but " + key.apply("type") + " is " + type);
    }
  }

  private static TokenBucket rateLimit(DestinationConfig destination, UnaryOperator<String> key) {
    if (destination.rateLimit().isEmpty()) {
      return null;
    }
    try {
      return new TokenBucket(destination.rateLimit().getAsDouble(), System.nanoTime());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key.apply("rate-limit") + ": " + e.getMessage());
    }
  }

  private static Breaker breaker(
      String name, BreakerConfig config, Duration longestCall, UnaryOperator<String> key) {
    try {
      // A probe whose result never came (its call was lost) stops holding the next one back
      // once it would have timed out, with a margin.
      return new Breaker(
          config.enabled(),
          config.failureThreshold(),
          config.coolDown(),
          longestCall.plusSeconds(5),
          (from, to) -> transition(name, config, from, to));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key.apply("breaker") + ": " + e.getMessage());
    }
  }

  private static void transition(
      String name, BreakerConfig config, Breaker.State from, Breaker.State to) {
    switch (to) {
      case OPEN ->
          LOG.warnf(
              "destination %s looks down (%s): no calls for %s, its rows wait without spending"
                  + " attempts, then one probe",
              name,
              from == Breaker.State.HALF_OPEN
                  ? "the probe failed"
                  : config.failureThreshold() + " outages in a row",
              config.coolDown());
      case HALF_OPEN -> LOG.infof("destination %s: cool-down over, sending one probe", name);
      case CLOSED -> LOG.infof("destination %s answers again: calls resume", name);
    }
  }

  private static RetryPolicy policy(
      DestinationConfig destination, RelayConfig config, UnaryOperator<String> key) {
    BackoffConfig b = destination.backoff();
    Backoff backoff;
    try {
      backoff = new Backoff(b.initial(), b.multiplier(), b.max(), b.jitter());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key.apply("backoff") + ": " + e.getMessage());
    }
    if (destination.maxAttempts() < 1) {
      throw new IllegalArgumentException(
          key.apply("max-attempts") + " must be >= 1, was " + destination.maxAttempts());
    }
    return new RetryPolicy(backoff, destination.maxAttempts(), config.retryAfterMax());
  }

  @PreDestroy
  void close() {
    routes.values().forEach(r -> r.destination().close());
  }
}
