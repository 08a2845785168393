package dev.onceonly.relay.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.config.RelayConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the client keeps of a provider's answer: at most {@link ProviderClient#MAX_BODY_BYTES} of an
 * error body in memory, masked, and a connection that still works after a huge body.
 */
class ProviderClientTest {

  private static final String HUGE_TAIL = "x".repeat(2 * 1024 * 1024);

  private Vertx vertx;
  private HttpServer server;

  @BeforeEach
  void provider() throws Exception {
    vertx = Vertx.vertx();
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                request ->
                    request.body(
                        body -> {
                          if (request.path().equals("/huge")) {
                            request
                                .response()
                                .setStatusCode(500)
                                .setChunked(true)
                                .end("{\"email\":\"ann@example.com\",\"trace\":\"" + HUGE_TAIL);
                          } else {
                            request.response().setStatusCode(201).end("{\"id\":\"rcpt_1\"}");
                          }
                        }))
            .listen(0)
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aHugeErrorBodyIsCutAtTheLimitAndMasked() throws Exception {
    ProviderClient client = client("/huge");

    ProviderResponse response = client.send("key-1", "{}").get(20, TimeUnit.SECONDS);

    assertThat(response.status()).isEqualTo(500);
    assertThat(response.error()).doesNotContain("ann@example.com").contains("\"email\":\"***\"");
    assertThat(response.error().length()).isLessThanOrEqualTo(503);
    // The connection survived the body: the next call is answered normally.
    assertThat(client("/ok").send("key-2", "{}").get(20, TimeUnit.SECONDS).status()).isEqualTo(201);
  }

  @Test
  void onlyTheLimitIsKeptInMemory() throws Exception {
    String kept =
        vertx
            .createHttpClient()
            .request(io.vertx.core.http.HttpMethod.POST, server.actualPort(), "127.0.0.1", "/huge")
            .compose(request -> request.send("{}"))
            .compose(response -> ProviderClient.bounded(response, true))
            .toCompletionStage()
            .toCompletableFuture()
            .get(20, TimeUnit.SECONDS);

    assertThat(kept).hasSize(ProviderClient.MAX_BODY_BYTES + "...".length()).endsWith("...");
  }

  private ProviderClient client(String path) {
    return new ProviderClient(
        "send_receipt",
        kind("http://127.0.0.1:" + server.actualPort(), path),
        vertx,
        4,
        new ErrorBodies(List.of("email")));
  }

  private static RelayConfig.KindConfig kind(String baseUrl, String path) {
    return new RelayConfig.KindConfig() {
      @Override
      public String baseUrl() {
        return baseUrl;
      }

      @Override
      public String path() {
        return path;
      }

      @Override
      public Duration connectTimeout() {
        return Duration.ofSeconds(2);
      }

      @Override
      public Duration readTimeout() {
        return Duration.ofSeconds(10);
      }

      @Override
      public int maxAttempts() {
        return 3;
      }

      @Override
      public RelayConfig.BackoffConfig backoff() {
        return null;
      }

      @Override
      public RelayConfig.AuthConfig auth() {
        return new RelayConfig.AuthConfig() {
          @Override
          public Optional<String> headerName() {
            return Optional.empty();
          }

          @Override
          public Optional<String> headerValue() {
            return Optional.empty();
          }
        };
      }
    };
  }
}
