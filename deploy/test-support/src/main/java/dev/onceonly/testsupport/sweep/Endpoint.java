package dev.onceonly.testsupport.sweep;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How to call one endpoint correctly, from which a sweep derives the malformed variants.
 *
 * @param key {@code METHOD /template}, as {@link Operation#key()}
 * @param role the role it needs: {@code outbox-viewer} or {@code outbox-admin}
 * @param pathValues a valid value for each path parameter
 * @param query query parameters the correct call needs (e.g. a required one)
 * @param headers request headers the correct call needs (e.g. a marker a page's script sends)
 * @param body a valid JSON body, or null when it takes none
 * @param status what the correct call answers (e.g. 200, or 404 for a key that does not exist)
 */
public record Endpoint(
    String key,
    String role,
    Map<String, String> pathValues,
    Map<String, String> query,
    Map<String, String> headers,
    String body,
    int status) {

  public static final String VIEWER = "outbox-viewer";
  public static final String ADMIN = "outbox-admin";

  /** A read: role viewer, no body. */
  public static Endpoint read(String key, int status) {
    return new Endpoint(key, VIEWER, Map.of(), Map.of(), Map.of(), null, status);
  }

  /** A change: role admin. */
  public static Endpoint change(String key, int status) {
    return new Endpoint(key, ADMIN, Map.of(), Map.of(), Map.of(), null, status);
  }

  public Endpoint path(String name, Object value) {
    return new Endpoint(
        key, role, with(pathValues, name, value.toString()), query, headers, body, status);
  }

  public Endpoint query(String name, String value) {
    return new Endpoint(key, role, pathValues, with(query, name, value), headers, body, status);
  }

  public Endpoint header(String name, String value) {
    return new Endpoint(key, role, pathValues, query, with(headers, name, value), body, status);
  }

  public Endpoint body(String json) {
    return new Endpoint(key, role, pathValues, query, headers, json, status);
  }

  /** The path with every parameter replaced by {@code override}'s or the valid value. */
  String path(String template, Map<String, String> override) {
    String path = template;
    for (Map.Entry<String, String> value : pathValues.entrySet()) {
      String replacement = override.getOrDefault(value.getKey(), value.getValue());
      path = path.replace("{" + value.getKey() + "}", replacement);
    }
    return path;
  }

  /** The correct query with {@code name=encodedValue} added or replacing its value. */
  String queryWith(String name, String encodedValue) {
    Map<String, String> all = new LinkedHashMap<>();
    query.forEach((n, v) -> all.put(n, Probes.enc(v)));
    if (name != null) {
      all.put(name, encodedValue);
    }
    return all.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining("&"));
  }

  private static Map<String, String> with(Map<String, String> map, String name, String value) {
    Map<String, String> copy = new LinkedHashMap<>(map);
    copy.put(name, value);
    return Map.copyOf(copy);
  }
}
