package dev.onceonly.relay.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One destination, {@code relay.destinations."<name>".*}: outbox rows whose {@code kind} is {@code
 * <name>} go there. What is common to every type is here; what a type needs is in its own group
 * ({@code http.*}), present only for that type.
 */
public interface DestinationConfig {

  /** How rows are delivered: {@code http}, {@code rabbitmq} or {@code kafka}. */
  @WithDefault("http")
  String type();

  /**
   * Most calls to this destination at once from one relay, counting calls whose outcome is not
   * written yet; also its connection pool. Default: {@code relay.max-in-flight}. Rows beyond it
   * stay pending and take none of the other destinations' room.
   */
  OptionalInt maxInFlight();

  /** Most calls started per second by one relay (a token bucket of a second's worth); none. */
  OptionalDouble rateLimit();

  /** Attempts after which a row that keeps failing with retryable errors goes dead. */
  @WithDefault("10")
  int maxAttempts();

  /** Delay between attempts. */
  BackoffConfig backoff();

  /** Stops calling a destination that looks down, and probes it before resuming. */
  BreakerConfig breaker();

  /** Calls over HTTP; required for {@code type=http}. */
  Optional<HttpConfig> http();

  /** Publishing to RabbitMQ; required for {@code type=rabbitmq}. */
  Optional<RabbitMqConfig> rabbitmq();

  /** Publishing to Kafka; required for {@code type=kafka}. */
  Optional<KafkaConfig> kafka();

  /** Exponential backoff: {@code min(max, initial * multiplier^(attempt-1))}, minus jitter. */
  interface BackoffConfig {

    /** Delay after the first failed attempt. */
    @WithDefault("1s")
    Duration initial();

    /** Factor applied per further failed attempt. */
    @WithDefault("2.0")
    double multiplier();

    /** Upper bound of the delay before jitter. */
    @WithDefault("5m")
    Duration max();

    /** Share of the delay removed at random (0 = none, 1 = anywhere down to zero). */
    @WithDefault("0.2")
    double jitter();
  }

  /**
   * A circuit breaker: after {@code failure-threshold} outages in a row (no answer, timeout, 5xx)
   * the relay leases none of the destination's rows for {@code cool-down}, then sends one probe;
   * success closes it, an outage opens it again. Rows wait meanwhile without spending attempts, and
   * so do those whose calls fail while it is open: a provider down for longer than the whole retry
   * budget leaves no dead row.
   */
  interface BreakerConfig {

    /** Whether the breaker is on. */
    @WithDefault("true")
    boolean enabled();

    /** Outages in a row that open it. */
    @WithDefault("10")
    int failureThreshold();

    /** How long it stays open before a probe. */
    @WithDefault("30s")
    Duration coolDown();
  }

  /**
   * Publishing to RabbitMQ: each row one persistent message on {@code exchange} with a routing key
   * its template fills, {@code message-id} = the row's idempotency key, publisher confirms.
   */
  interface RabbitMqConfig {

    /**
     * The nodes of a cluster, {@code host:port} separated by commas ({@code
     * rabbit-0:5672,rabbit-1:5672,rabbit-2:5672}); when set, {@code host} and {@code port} are not
     * used, and each connection goes to a node that answers.
     */
    Optional<String> addresses();

    /** Broker host, when {@code addresses} is not set. */
    @WithDefault("localhost")
    String host();

    /** Broker port (5671 is usual with TLS). */
    @WithDefault("5672")
    int port();

    /** User; left out with the password, RabbitMQ's {@code guest} (which only works locally). */
    Optional<String> username();

    /** Password, from a Secret; required with {@code username}. */
    Optional<String> password();

    /** Virtual host. */
    @WithDefault("/")
    String virtualHost();

    /** AMQPS: TLS, verifying the broker's certificate ({@code ca-file}) and host name. */
    @WithDefault("false")
    boolean tls();

    /**
     * With {@code tls}: a PEM file of the CA certificates that may sign the broker's certificate
     * (in Kubernetes, a mounted Secret); left out, the JVM's trust store (a public CA, Amazon MQ).
     */
    Optional<String> caFile();

    /** With {@code tls}: whether the broker's certificate must name {@code host}. */
    @WithDefault("true")
    boolean verifyHostname();

    /** The exchange rows go to (it must exist); left out, the default exchange. */
    Optional<String> exchange();

    /**
     * The routing key, a template like {@code http.url}'s, not encoded: e.g. {@code
     * order.{payload.orderId}}; at most 255 bytes once filled.
     */
    @WithDefault("{destination}")
    String routingKey();

    /** Persistent messages (delivery mode 2): they survive a broker restart in durable queues. */
    @WithDefault("true")
    boolean persistent();

    /** {@code mandatory}: a message no queue takes comes back, and the attempt fails. */
    @WithDefault("true")
    boolean mandatory();

    /** Longest wait for a connection. */
    @WithDefault("5s")
    Duration connectTimeout();

    /** Longest wait for the broker's confirm of one message. */
    @WithDefault("10s")
    Duration confirmTimeout();
  }

  /**
   * Publishing to Kafka: each row one record on {@code topic}, keyed by the row's ordering key (or
   * {@code key}), the row's idempotency key in header {@code idempotency-header}, from one
   * idempotent producer ({@code acks=all}) per destination and relay.
   */
  interface KafkaConfig {

    /** The brokers to bootstrap from, {@code host:port[,host:port...]}; required. */
    Optional<String> bootstrapServers();

    /** The topic records go to (it must exist, unless the brokers create topics); required. */
    Optional<String> topic();

    /**
     * The record key, a template like {@code rabbitmq.routing-key}'s (also {@code {orderingKey}});
     * left out, the row's ordering key, and no key for a row without one.
     */
    Optional<String> key();

    /** The header carrying the row's idempotency key, the same on every attempt. */
    @WithDefault("message-id")
    String idempotencyHeader();

    /** Longest wait for the topic's metadata (the brokers) before a record is handed over. */
    @WithDefault("5s")
    Duration connectTimeout();

    /** Longest wait from handing a record over to its acknowledgement by all in-sync replicas. */
    @WithDefault("10s")
    Duration sendTimeout();

    /**
     * Further producer properties, passed through as they are: TLS and SASL ({@code
     * security.protocol}, {@code sasl.jaas.config}, ...), compression, batching. Those the relay
     * sets itself (acks, idempotence, serializers, bootstrap servers, timeouts) are refused.
     */
    Map<String, String> properties();
  }

  /** One HTTP call per row: the row's payload is the JSON body. */
  interface HttpConfig {

    /**
     * Where to send it, a template: {@code {payload.<field>}} (dotted for nested fields), {@code
     * {id}}, {@code {idempotencyKey}} and {@code {destination}} are replaced by the row's values,
     * percent-encoded, e.g. {@code https://labels.example.com/v1/labels/{payload.orderId}}.
     */
    String url();

    /** {@code POST}, {@code PUT} or {@code PATCH}. */
    @WithDefault("POST")
    String method();

    /** Longest wait for a TCP connection. */
    @WithDefault("2s")
    Duration connectTimeout();

    /** Longest wait for the whole response once the request is sent. */
    @WithDefault("10s")
    Duration readTimeout();

    /** The header that carries the row's idempotency key, the same on every attempt. */
    @WithDefault("Idempotency-Key")
    String idempotencyHeader();

    /** Headers sent as they are on every call (nothing secret: see {@code auth}). */
    Map<String, String> headers();

    /** Credentials, from a Secret through the environment; never logged. */
    AuthConfig auth();

    /** Which answers mean delivered and which are worth another attempt; the rest are final. */
    ResponsesConfig responses();

    /** Signs each call as the Standard Webhooks specification says. */
    SigningConfig signing();
  }

  /**
   * Standard Webhooks signatures (https://www.standardwebhooks.com): each call carries {@code
   * webhook-id} (stable across attempts), {@code webhook-timestamp} (the attempt's, in seconds) and
   * {@code webhook-signature}: {@code v1,<base64 HMAC-SHA256 of id.timestamp.body>}, one per
   * secret. On when {@code secret} is set (or {@code enabled=true}, which then requires it).
   */
  interface SigningConfig {

    /** Signing on or off; left out, on exactly when {@code secret} is set. */
    Optional<Boolean> enabled();

    /** The secret, {@code whsec_<base64 of 24 to 64 random bytes>}, from a Secret. */
    Optional<String> secret();

    /** During a rotation, the secret being replaced: calls are signed with both. */
    Optional<String> previousSecret();
  }

  /**
   * At most one kind of credential: a bearer {@code token}, a {@code username} and {@code password}
   * (Basic), or an API key as {@code header-name} and {@code header-value}. {@code type} names it
   * ({@code none}, {@code bearer}, {@code basic}, {@code api-key}); left out, it follows from the
   * values that are set.
   */
  interface AuthConfig {

    /** {@code none}, {@code bearer}, {@code basic} or {@code api-key}; inferred when left out. */
    Optional<String> type();

    /** Bearer token: {@code Authorization: Bearer <token>}. */
    Optional<String> token();

    /** Basic user name. */
    Optional<String> username();

    /** Basic password. */
    Optional<String> password();

    /** API key header name, e.g. {@code X-Api-Key}. */
    Optional<String> headerName();

    /** API key header value. */
    Optional<String> headerValue();
  }

  /**
   * Status classes as a list of codes ({@code 409}), ranges ({@code 500-504}) and classes ({@code
   * 5xx}). {@code success} is checked first, so a provider that answers 409 for a key it already
   * took can list 409 there.
   */
  interface ResponsesConfig {

    /** Answers that mean the destination took the row. */
    @WithDefault("2xx")
    List<String> success();

    /** Answers worth another attempt (with backoff and {@code Retry-After}). */
    @WithDefault("408,409,425,429,5xx")
    List<String> retryable();
  }
}
