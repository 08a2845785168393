package dev.onceonly.relay.destination.http;

import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.Destination;
import dev.onceonly.relay.destination.ErrorBodies;
import dev.onceonly.relay.destination.Template.MissingValue;
import dev.onceonly.relay.lease.LeasedRow;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.tracing.TracingPolicy;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An HTTP destination: one call per row ({@code <method> <url>}, the row's payload as JSON, its
 * idempotency key in {@code idempotency-header}), within bounded connect and read timeouts, over a
 * bounded pool of keep-alive connections (Vert.x, non-blocking), with the destination's headers and
 * credentials ({@link HttpSettings}). Of an answer it keeps at most {@value #MAX_BODY_BYTES} bytes
 * of an error body (the rest is read and dropped, nothing of a 2xx body), with personal data masked
 * ({@link ErrorBodies}), and classifies it by the destination's response classes.
 */
public class HttpDestination implements Destination {

  /** The most of an error body held in memory; only its first 500 characters are kept. */
  public static final int MAX_BODY_BYTES = 16 * 1024;

  private final HttpSettings settings;
  private final HttpClient http;
  private final ErrorBodies errorBodies;

  public HttpDestination(
      String name, HttpSettings settings, Vertx vertx, int maxConnections, ErrorBodies errors) {
    this.settings = settings;
    this.errorBodies = errors;
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setName("outbox-" + name)
                .setConnectTimeout((int) settings.connectTimeout().toMillis())
                .setMaxPoolSize(maxConnections)
                .setKeepAlive(true)
                .setTcpNoDelay(true)
                // The attempt's span is made by dispatch.DeliveryTracing, with its header.
                .setTracingPolicy(TracingPolicy.IGNORE));
  }

  @Override
  public String target() {
    String target = settings.method() + " " + settings.url().text();
    return settings.signer() == null ? target : target + ", signed (" + settings.signer() + ")";
  }

  @Override
  public CompletableFuture<DeliveryResult> send(LeasedRow row, String traceParent) {
    String url;
    try {
      url = url(row);
    } catch (MissingValue e) {
      return CompletableFuture.completedFuture(
          DeliveryResult.unsendable("cannot build the URL: " + e.getMessage()));
    }
    RequestOptions request =
        new RequestOptions()
            .setMethod(settings.method())
            .setAbsoluteURI(url)
            .setIdleTimeout(settings.readTimeout().toMillis())
            .putHeader("Content-Type", "application/json")
            .putHeader("Accept", "application/json")
            .putHeader(settings.idempotencyHeader(), row.idempotencyKey());
    settings.headers().forEach(request::putHeader);
    if (settings.auth().present()) {
      request.putHeader(settings.auth().header(), settings.auth().value());
    }
    if (traceParent != null) {
      request.putHeader("traceparent", traceParent);
    }
    if (settings.signer() != null) {
      long now = System.currentTimeMillis() / 1000;
      settings
          .signer()
          .headers(row.idempotencyKey(), now, row.payload())
          .forEach(request::putHeader);
    }
    return call(request, url, row.payload());
  }

  private CompletableFuture<DeliveryResult> call(RequestOptions request, String url, String body) {
    AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
    CompletableFuture<DeliveryResult> result = new CompletableFuture<>();
    http.request(request)
        .compose(
            call -> {
              sent.set(call);
              return call.send(Buffer.buffer(body));
            })
        .compose(this::answer)
        .onComplete(
            done ->
                result.complete(
                    done.succeeded()
                        ? done.result()
                        : DeliveryResult.noAnswer(describe(done.cause(), url))));
    // The idle timeout bounds silence; this bounds the whole call, and aborts it when exceeded.
    long overallMillis = settings.connectTimeout().plus(settings.readTimeout()).toMillis();
    return result
        .orTimeout(overallMillis, TimeUnit.MILLISECONDS)
        .exceptionally(
            error -> {
              HttpClientRequest call = sent.get();
              if (call != null) {
                call.reset();
              }
              return DeliveryResult.noAnswer(describe(error, url));
            });
  }

  private Future<DeliveryResult> answer(HttpClientResponse response) {
    int status = response.statusCode();
    DeliveryResult.Classification classification = settings.responses().classify(status);
    return bounded(response, classification != DeliveryResult.Classification.SUCCESS)
        .map(
            body ->
                DeliveryResult.answered(
                    classification,
                    status,
                    response.getHeader("Retry-After"),
                    errorBodies.redact(body)));
  }

  private String url(LeasedRow row) throws MissingValue {
    return settings.url().render(row, UrlEncoding::segment);
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

  private String describe(Throwable error, String url) {
    Throwable cause = error instanceof CompletionException ? error.getCause() : error;
    String text = String.valueOf(cause);
    if (cause instanceof ConnectException && text.contains("timed out")) {
      return "connect timeout after " + settings.connectTimeout().toMillis() + " ms";
    }
    if (cause instanceof ConnectException) {
      return "connection refused: " + settings.method() + " " + url;
    }
    if (cause instanceof TimeoutException) {
      return "timeout after " + settings.readTimeout().toMillis() + " ms";
    }
    return "connection error: " + text;
  }

  @Override
  public void close() {
    http.close();
  }
}
