package dev.onceonly.testsupport.sweep;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The malformed variants of one correct call: no or wrong credentials, a role too weak, an unknown
 * query parameter, a NUL byte or a wrong type in each parameter and body field, a body over the
 * limit (declared and chunked), a cross-site origin. Each differs from the correct call in one way
 * only, so its answer is about that one thing.
 */
final class Probes {

  static final String NUL = "a\u0000b";
  private static final String EVIL = "https://evil.example";

  private final Credentials credentials;
  private final long bodyLimit;

  record Credentials(String viewer, String admin, String wrong) {}

  Probes(Credentials credentials, long bodyLimit) {
    this.credentials = credentials;
    this.bodyLimit = bodyLimit;
  }

  List<Probe> of(Operation op, Endpoint endpoint) {
    List<Probe> probes = new ArrayList<>();
    String path = endpoint.path(op.path(), Map.of());
    String user = user(endpoint);
    String body = endpoint.body();
    String correct = endpoint.queryWith(null, null);
    probes.add(probe(op, "no credentials", path, null, correct, body, 401, "log in"));
    probes.add(
        probe(op, "wrong password", path, credentials.wrong(), correct, body, 401, "log in"));
    if (Endpoint.ADMIN.equals(endpoint.role())) {
      probes.add(
          probe(op, "viewer role", path, credentials.viewer(), correct, body, 403, "outbox-admin"));
    }
    probes.add(
        probe(
            op,
            "unknown query parameter",
            path,
            user,
            endpoint.queryWith("zzunknown", "1"),
            body,
            400,
            "zzunknown"));
    for (Operation.Parameter p : op.parameters()) {
      if (p.inQuery()) {
        probes.add(
            probe(
                op,
                "NUL in ?" + p.name(),
                path,
                user,
                endpoint.queryWith(p.name(), enc(NUL)),
                body,
                400,
                p.name()));
        if (p.numeric()) {
          probes.add(
              probe(
                  op,
                  "letters in ?" + p.name(),
                  path,
                  user,
                  endpoint.queryWith(p.name(), "abc"),
                  body,
                  400,
                  p.name()));
        }
        if (p.timestamp()) {
          probes.add(
              probe(
                  op,
                  "bad date in ?" + p.name(),
                  path,
                  user,
                  endpoint.queryWith(p.name(), "yesterday"),
                  body,
                  400,
                  p.name()));
        }
      } else if (p.inPath()) {
        String nul = endpoint.path(op.path(), Map.of(p.name(), enc(NUL)));
        probes.add(probe(op, "NUL in {" + p.name() + "}", nul, user, correct, body, 400, "NUL"));
        if (p.numeric()) {
          String letters = endpoint.path(op.path(), Map.of(p.name(), "abc"));
          probes.add(
              probe(op, "letters in {" + p.name() + "}", letters, user, correct, body, 400, "abc"));
        }
      }
    }
    if (op.takesBody()) {
      for (String field : op.bodyTextFields()) {
        String withNul = "{\"" + field + "\":\"a\\u0000b\"}";
        probes.add(
            probe(op, "NUL in body field " + field, path, user, correct, withNul, 400, field));
      }
      probes.add(probe(op, "malformed JSON body", path, user, correct, "{\"", 400, "JSON"));
    }
    if (!"GET".equals(op.method())) {
      String huge = "{\"x\":\"" + "x".repeat((int) bodyLimit) + "\"}";
      probes.add(
          probe(op, "body over the limit", path, user, correct, huge, 413, "over the limit"));
      probes.add(
          new Probe(
              "chunked body over the limit",
              op.method(),
              path,
              user,
              correct,
              Map.of(),
              huge,
              true,
              413,
              "over the limit"));
      probes.add(
          new Probe(
              "cross-site origin",
              op.method(),
              path,
              user,
              correct,
              Map.of("Origin", EVIL),
              body,
              false,
              403,
              "another origin"));
      probes.add(
          new Probe(
              "cross-site referer",
              op.method(),
              path,
              user,
              correct,
              Map.of("Referer", EVIL + "/page"),
              body,
              false,
              403,
              "another origin"));
    }
    return probes.stream().map(p -> withHeaders(p, endpoint.headers())).toList();
  }

  private static Probe withHeaders(Probe p, Map<String, String> headers) {
    Map<String, String> all = new java.util.LinkedHashMap<>(headers);
    all.putAll(p.headers());
    return new Probe(
        p.what(),
        p.method(),
        p.path(),
        p.credentials(),
        p.query(),
        Map.copyOf(all),
        p.body(),
        p.chunked(),
        p.status(),
        p.detail());
  }

  /** The credentials of the role the endpoint needs. */
  String user(Endpoint endpoint) {
    return Endpoint.ADMIN.equals(endpoint.role()) ? credentials.admin() : credentials.viewer();
  }

  private static Probe probe(
      Operation op,
      String what,
      String path,
      String user,
      String query,
      String body,
      int status,
      String detail) {
    return new Probe(what, op.method(), path, user, query, Map.of(), body, false, status, detail);
  }

  static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
