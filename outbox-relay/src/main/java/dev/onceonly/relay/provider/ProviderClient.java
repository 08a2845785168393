package dev.onceonly.relay.provider;

import dev.onceonly.relay.config.RelayConfig.KindConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one way the relay talks to the provider of one outbox kind: {@code POST <base-url><path>}
 * with the row's payload as JSON and its idempotency key as {@code Idempotency-Key}, within bounded
 * connect and read timeouts, over a bounded pool of keep-alive connections (Vert.x, non-blocking).
 * It never retries: the outbox does, and retries would multiply. Of an answer it keeps at most
 * {@value #MAX_BODY_BYTES} bytes of an error body (the rest is read and dropped, nothing of a 2xx
 * body), with personal data masked ({@link ErrorBodies}).
 */
public class ProviderClient {

  public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  /** The most of a provider's error body held in memory; only its first 500 characters are kept. */
  public static final int MAX_BODY_BYTES = 16 * 1024;

  private final HttpClient http;
  private final String endpoint;
  private final Duration connectTimeout;
  private final Duration readTimeout;
  private final String authHeader;
  private final String authValue;
  private final ErrorBodies errorBodies;

  public ProviderClient(
      String kind, KindConfig config, Vertx vertx, int maxConnections, ErrorBodies errorBodies) {
    this.errorBodies = errorBodies;
    this.endpoint = stripSlash(config.baseUrl()) + config.path();
    this.connectTimeout = config.connectTimeout();
    this.readTimeout = config.readTimeout();
    this.authHeader = config.auth().headerName().orElse(null);
    this.authValue = config.auth().headerValue().orElse(null);
    if (authHeader != null && authValue == null) {
      throw new IllegalStateException(
          "relay.kinds.\"" + kind + "\".auth.header-name is set but header-value is not");
    }
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setName("outbox-" + kind)
                .setConnectTimeout((int) connectTimeout.toMillis())
                .setMaxPoolSize(maxConnections)
                .setKeepAlive(true)
                .setTcpNoDelay(true));
  }

  public String endpoint() {
    return endpoint;
  }

  /** Sends one row; the future always completes normally, with an answer or the reason for none. */
  public CompletableFuture<ProviderResponse> send(String idempotencyKey, String jsonPayload) {
    RequestOptions request =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setAbsoluteURI(endpoint)
            .setIdleTimeout(readTimeout.toMillis())
            .putHeader("Content-Type", "application/json")
            .putHeader("Accept", "application/json")
            .putHeader(IDEMPOTENCY_KEY, idempotencyKey);
    if (authHeader != null) {
      request.putHeader(authHeader, authValue);
    }
    AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
    CompletableFuture<ProviderResponse> result = new CompletableFuture<>();
    http.request(request)
        .compose(
            call -> {
              sent.set(call);
              return call.send(Buffer.buffer(jsonPayload));
            })
        .compose(
            response ->
                bounded(response, response.statusCode() / 100 != 2)
                    .map(
                        body ->
                            ProviderResponse.answered(
                                response.statusCode(),
                                response.getHeader("Retry-After"),
                                errorBodies.redact(body))))
        .onComplete(
            done ->
                result.complete(
                    done.succeeded()
                        ? done.result()
                        : ProviderResponse.noAnswer(describe(done.cause()))));
    // The idle timeout bounds silence; this bounds the whole call, and aborts it when exceeded.
    long overallMillis = connectTimeout.plus(readTimeout).toMillis();
    return result
        .orTimeout(overallMillis, TimeUnit.MILLISECONDS)
        .exceptionally(
            error -> {
              HttpClientRequest call = sent.get();
              if (call != null) {
                call.reset();
              }
              return ProviderResponse.noAnswer(describe(error));
            });
  }

  /**
   * Reads the whole answer (so that the connection can be used again) but keeps at most {@link
   * #MAX_BODY_BYTES} of it, and nothing when {@code keep} is false; a body cut short ends in "...".
   */
  static Future<String> bounded(HttpClientResponse response, boolean keep) {
    Promise<String> body = Promise.promise();
    Buffer kept = Buffer.buffer();
    boolean[] cut = {false};
    try {
      read(response, keep, body, kept, cut);
    } catch (IllegalStateException alreadyEnded) {
      // The whole answer arrived before this callback ran (Vert.x runs it a moment later when the
      // call was made off its event loop): its body is gone, but its status is right. Before, this
      // counted as a connection error and a delivered row was sent again.
      body.tryComplete(null);
    }
    return body.future();
  }

  private static void read(
      HttpClientResponse response, boolean keep, Promise<String> body, Buffer kept, boolean[] cut) {
    response.handler(
        chunk -> {
          if (!keep) {
            return;
          }
          int room = MAX_BODY_BYTES - kept.length();
          if (chunk.length() <= room) {
            kept.appendBuffer(chunk);
          } else {
            kept.appendBuffer(chunk, 0, Math.max(room, 0));
            cut[0] = true;
          }
        });
    response.exceptionHandler(body::tryFail);
    response.endHandler(
        done ->
            body.tryComplete(
                keep ? kept.toString(StandardCharsets.UTF_8) + (cut[0] ? "..." : "") : null));
  }

  private String describe(Throwable error) {
    Throwable cause = error instanceof CompletionException ? error.getCause() : error;
    String text = String.valueOf(cause);
    if (cause instanceof ConnectException && text.contains("timed out")) {
      return "connect timeout after " + connectTimeout.toMillis() + " ms";
    }
    if (cause instanceof ConnectException) {
      return "connection refused: " + endpoint;
    }
    if (cause instanceof TimeoutException) {
      return "timeout after " + readTimeout.toMillis() + " ms";
    }
    return "connection error: " + text;
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
