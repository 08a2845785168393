package dev.onceonly.testsupport.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Sends malformed input to every operation of a service's OpenAPI document and lists every answer
 * that is not an {@code application/problem+json} 4xx with the expected status and a detail that
 * names what is wrong. An operation the caller did not describe ({@link Endpoint}) is itself a
 * finding, so a new endpoint cannot go without this coverage.
 */
public final class EndpointSweep {

  private final URI base;
  private final Probes probes;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** Credentials as {@code user:password}; {@code bodyLimit} as the service configures it. */
  public EndpointSweep(URI base, String viewer, String admin, long bodyLimit) {
    this.base = base;
    this.probes =
        new Probes(
            new Probes.Credentials(viewer, admin, viewer.split(":")[0] + ":wrong"), bodyLimit);
  }

  /** Reads the service's OpenAPI document as {@code credentials}. */
  public List<Operation> operations(String credentials) {
    HttpResponse<String> response =
        send(
            new Probe(
                "openapi",
                "GET",
                "/q/openapi",
                credentials,
                "format=json",
                Map.of(),
                null,
                false,
                200,
                null));
    if (response.statusCode() != 200) {
      throw new IllegalStateException("GET /q/openapi answered " + response.statusCode());
    }
    return OpenApiOperations.parse(response.body());
  }

  /** Every finding; empty when every endpoint answered every malformed request as it must. */
  public List<String> findings(List<Operation> operations, List<Endpoint> endpoints) {
    Map<String, Endpoint> described =
        endpoints.stream().collect(Collectors.toMap(Endpoint::key, Function.identity()));
    List<String> findings = new ArrayList<>();
    TreeSet<String> stale = new TreeSet<>(described.keySet());
    for (Operation op : operations) {
      stale.remove(op.key());
      Endpoint endpoint = described.get(op.key());
      if (endpoint == null) {
        findings.add(op.key() + ": not covered; describe a correct call of it to the sweep");
        continue;
      }
      for (Probe probe : probes.of(op, endpoint)) {
        check(op, probe).ifPresent(findings::add);
      }
      Probe correct =
          new Probe(
              "correct call",
              op.method(),
              endpoint.path(op.path(), Map.of()),
              null,
              endpoint.queryWith(null, null),
              endpoint.headers(),
              endpoint.body(),
              false,
              endpoint.status(),
              null);
      int status = send(withRole(correct, endpoint)).statusCode();
      if (status != endpoint.status()) {
        findings.add(op.key() + " correct call: expected " + endpoint.status() + ", got " + status);
      }
    }
    stale.forEach(key -> findings.add(key + ": described but not in the OpenAPI document"));
    return findings;
  }

  private Probe withRole(Probe p, Endpoint endpoint) {
    return new Probe(
        p.what(),
        p.method(),
        p.path(),
        probes.user(endpoint),
        p.query(),
        p.headers(),
        p.body(),
        false,
        p.status(),
        null);
  }

  private java.util.Optional<String> check(Operation op, Probe probe) {
    HttpResponse<String> response = send(probe);
    String where =
        op.key()
            + " ["
            + probe.what()
            + "] "
            + probe.method()
            + " "
            + probe.path()
            + (probe.query().isEmpty() ? "" : "?" + probe.query());
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (response.statusCode() != probe.status() || !type.startsWith("application/problem+json")) {
      return java.util.Optional.of(
          where
              + ": expected a "
              + probe.status()
              + " problem, got "
              + response.statusCode()
              + " "
              + type
              + " "
              + abbreviate(response.body()));
    }
    String detail = detail(response.body());
    if (detail == null
        || detail.isBlank()
        || (probe.detail() != null
            && !detail
                .toLowerCase(Locale.ROOT)
                .contains(probe.detail().toLowerCase(Locale.ROOT)))) {
      return java.util.Optional.of(
          where + ": the detail should mention '" + probe.detail() + "', was: " + detail);
    }
    if (probe.status() == 401 && response.headers().firstValue("WWW-Authenticate").isEmpty()) {
      return java.util.Optional.of(
          where + ": 401 without WWW-Authenticate, a browser would not ask for a login");
    }
    return java.util.Optional.empty();
  }

  private HttpResponse<String> send(Probe probe) {
    String query = probe.query().isEmpty() ? "" : "?" + probe.query();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(base.toString().replaceAll("/$", "") + probe.path() + query))
            .timeout(Duration.ofSeconds(30));
    if (probe.credentials() != null) {
      request.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString(probe.credentials().getBytes(StandardCharsets.UTF_8)));
    }
    probe.headers().forEach(request::header);
    if (probe.body() == null) {
      request.method(probe.method(), HttpRequest.BodyPublishers.noBody());
    } else {
      byte[] bytes = probe.body().getBytes(StandardCharsets.UTF_8);
      request.header("Content-Type", "application/json");
      request.method(
          probe.method(),
          probe.chunked()
              ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes))
              : HttpRequest.BodyPublishers.ofByteArray(bytes));
    }
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(probe.method() + " " + probe.path() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String detail(String body) {
    try {
      JsonNode problem = new ObjectMapper().readTree(body);
      return problem.path("detail").asText(null);
    } catch (IOException e) {
      return null;
    }
  }

  private static String abbreviate(String body) {
    return body == null ? "" : body.length() > 200 ? body.substring(0, 200) + "..." : body;
  }
}
