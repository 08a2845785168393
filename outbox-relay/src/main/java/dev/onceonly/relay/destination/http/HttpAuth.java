package dev.onceonly.relay.destination.http;

import dev.onceonly.relay.config.DestinationConfig.AuthConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The one header that carries a destination's credentials, made once at start from {@code
 * http.auth.*} (values a Kubernetes Secret puts in the environment). Its value is never logged nor
 * part of any message: {@link #toString} names the scheme only.
 */
record HttpAuth(String scheme, String header, String value) {

  static final HttpAuth NONE = new HttpAuth("none", null, null);

  /**
   * The header {@code auth} describes; {@code key} names a key of it in messages (e.g. {@code
   * token} → {@code relay.destinations."x".http.auth.token}). A missing or extra value is an {@link
   * IllegalArgumentException} naming the keys to set.
   */
  static HttpAuth of(AuthConfig auth, UnaryOperator<String> key) {
    String type =
        auth.type().map(t -> t.strip().toLowerCase(Locale.ROOT)).orElseGet(() -> infer(auth));
    List<String> extra = new ArrayList<>();
    HttpAuth made =
        switch (type) {
          case "none" -> NONE;
          case "bearer" -> {
            String token = required(auth.token(), key.apply("token"), type);
            yield new HttpAuth(type, "Authorization", "Bearer " + token);
          }
          case "basic" -> {
            String user = required(auth.username(), key.apply("username"), type);
            String password = required(auth.password(), key.apply("password"), type);
            String pair = user + ":" + password;
            yield new HttpAuth(
                type,
                "Authorization",
                "Basic "
                    + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
          }
          case "api-key" -> {
            String name = required(auth.headerName(), key.apply("header-name"), type);
            String value = required(auth.headerValue(), key.apply("header-value"), type);
            yield new HttpAuth(type, name, value);
          }
          default ->
              throw new IllegalArgumentException(
                  key.apply("type")
                      + " must be none, bearer, basic or api-key, was '"
                      + type
                      + "'");
        };
    unused(auth.token(), "bearer", type, key.apply("token"), extra);
    unused(auth.username(), "basic", type, key.apply("username"), extra);
    unused(auth.password(), "basic", type, key.apply("password"), extra);
    unused(auth.headerName(), "api-key", type, key.apply("header-name"), extra);
    unused(auth.headerValue(), "api-key", type, key.apply("header-value"), extra);
    if (!extra.isEmpty()) {
      throw new IllegalArgumentException(
          String.join(", ", extra)
              + (extra.size() == 1 ? " is" : " are")
              + " set but "
              + key.apply("type")
              + " is "
              + type
              + ": set one kind of credential");
    }
    return made;
  }

  boolean present() {
    return header != null;
  }

  private static String infer(AuthConfig auth) {
    if (auth.token().isPresent()) {
      return "bearer";
    }
    if (auth.username().isPresent() || auth.password().isPresent()) {
      return "basic";
    }
    if (auth.headerName().isPresent() || auth.headerValue().isPresent()) {
      return "api-key";
    }
    return "none";
  }

  private static String required(Optional<String> value, String key, String type) {
    return value
        .filter(v -> !v.isBlank())
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    key + " is required for " + type + " authentication (usually from a Secret)"));
  }

  private static void unused(
      Optional<String> value, String owner, String type, String key, List<String> extra) {
    if (value.isPresent() && !owner.equals(type)) {
      extra.add(key);
    }
  }

  @Override
  public String toString() {
    return present() ? scheme + " (" + header + ")" : "none";
  }
}
