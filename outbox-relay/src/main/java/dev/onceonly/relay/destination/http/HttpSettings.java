package dev.onceonly.relay.destination.http;

import dev.onceonly.relay.config.DestinationConfig.HttpConfig;
import dev.onceonly.relay.destination.Template;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * An HTTP destination's settings, checked at start: {@link #of} refuses anything the relay could
 * not send, with a message naming the key ({@code key} turns {@code url} into {@code
 * relay.destinations."<name>".http.url}).
 */
public record HttpSettings(
    HttpMethod method,
    Template url,
    Duration connectTimeout,
    Duration readTimeout,
    String idempotencyHeader,
    Map<String, String> headers,
    HttpAuth auth,
    ResponseClasses responses,
    WebhookSigner signer) {

  static final Set<String> METHODS = Set.of("POST", "PUT", "PATCH");

  /** Headers the relay sets itself; configuring one of them is a mistake. */
  static final Set<String> RESERVED =
      Set.of(
          "content-type",
          "content-length",
          "host",
          "traceparent",
          "transfer-encoding",
          WebhookSigner.ID,
          WebhookSigner.TIMESTAMP,
          WebhookSigner.SIGNATURE);

  /** The settings {@code http} describes, or an {@link IllegalArgumentException} naming the key. */
  public static HttpSettings of(HttpConfig http, UnaryOperator<String> key) {
    String method = http.method().strip().toUpperCase(Locale.ROOT);
    if (!METHODS.contains(method)) {
      throw new IllegalArgumentException(
          key.apply("method")
              + " must be one of "
              + new TreeSet<>(METHODS)
              + ", was '"
              + method
              + "'");
    }
    Template url = url(http.url(), key.apply("url"));
    positive(http.connectTimeout(), key.apply("connect-timeout"));
    positive(http.readTimeout(), key.apply("read-timeout"));
    String idempotency = headerName(http.idempotencyHeader(), key.apply("idempotency-header"));
    Map<String, String> headers = new LinkedHashMap<>();
    http.headers()
        .forEach(
            (name, value) ->
                headers.put(headerName(name, key.apply("headers.\"" + name + "\"")), value));
    HttpAuth auth = HttpAuth.of(http.auth(), k -> key.apply("auth." + k));
    ResponseClasses responses;
    try {
      responses = new ResponseClasses(http.responses().success(), http.responses().retryable());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key.apply("responses") + ": " + e.getMessage());
    }
    List<String> clashes =
        headers.keySet().stream()
            .filter(
                h ->
                    h.equalsIgnoreCase(idempotency)
                        || (auth.present() && h.equalsIgnoreCase(auth.header())))
            .toList();
    if (!clashes.isEmpty()) {
      throw new IllegalArgumentException(
          key.apply("headers")
              + " sets "
              + clashes
              + ", which the relay sends itself (idempotency key or credentials)");
    }
    WebhookSigner signer =
        WebhookSigner.of(http.signing(), k -> key.apply("signing." + k)).orElse(null);
    return new HttpSettings(
        HttpMethod.valueOf(method),
        url,
        http.connectTimeout(),
        http.readTimeout(),
        idempotency,
        Map.copyOf(headers),
        auth,
        responses,
        signer);
  }

  private static Template url(String text, String key) {
    Template template;
    try {
      // A base URL ending in '/' before a path ("${RECEIPTS_URL}/v1/receipts"): one slash.
      template =
          Template.parse(text.strip().replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://[^/]+)//+", "$1/"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + " is not a valid template: " + e.getMessage());
    }
    URI uri;
    try {
      uri = new URI(template.sample("x"));
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          key + " is not a URL once its placeholders are filled: " + e.getMessage());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException(
          key + " must be an http:// or https:// URL, was '" + text + "'");
    }
    // The host and port are the configuration's alone: a row's payload never chooses the server.
    String plain = template.text();
    int authorityEnd = plain.indexOf('/', plain.indexOf("://") + 3);
    int firstPlaceholder = plain.indexOf('{');
    if (uri.getHost() == null
        || (firstPlaceholder >= 0 && (authorityEnd < 0 || firstPlaceholder < authorityEnd))) {
      throw new IllegalArgumentException(
          key
              + " must name its host and port itself, placeholders only after them, was '"
              + text
              + "'");
    }
    return template;
  }

  private static String headerName(String name, String key) {
    String clean = name.strip();
    if (!clean.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
      throw new IllegalArgumentException(key + " is not a valid header name: '" + name + "'");
    }
    if (RESERVED.contains(clean.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException(key + " names " + clean + ", which the relay sets itself");
    }
    return clean;
  }

  private static void positive(Duration duration, String key) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(key + " must be > 0, was " + duration);
    }
  }
}
