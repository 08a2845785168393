package dev.onceonly.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * A tiny OTLP/HTTP trace receiver for the benchmarks' {@code TRACING=on}: answers 200 with an empty
 * body to {@code POST /v1/traces} (protobuf, gzip or not), counts the requests, the bytes and the
 * spans in them, and answers {@code GET /stats} with {@code otlp_requests=}, {@code otlp_bytes=},
 * {@code otlp_spans=} lines; prints the same at exit. Any other request gets 404 and is counted as
 * {@code otlp_other_requests}, so a wrong exporter path shows. {@code OtlpSink <port>}.
 */
public final class OtlpSink {

  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong spans = new AtomicLong();
  private final AtomicLong undecodable = new AtomicLong();
  private final AtomicLong other = new AtomicLong();

  public static void main(String[] args) throws IOException {
    OtlpSink sink = new OtlpSink();
    HttpServer server =
        HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 64);
    server.createContext("/", sink::handle);
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.print(sink.stats())));
  }

  String stats() {
    return "otlp_requests=%d%notlp_bytes=%d%notlp_spans=%d%notlp_undecodable=%d%notlp_other_requests=%d%n"
        .formatted(requests.get(), bytes.get(), spans.get(), undecodable.get(), other.get());
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (method.equals("POST") && path.endsWith("/v1/traces")) {
        byte[] body = exchange.getRequestBody().readAllBytes();
        requests.incrementAndGet();
        bytes.addAndGet(body.length);
        count(body, exchange.getRequestHeaders().getFirst("Content-Encoding"));
        exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
        exchange.sendResponseHeaders(200, -1);
      } else if (method.equals("GET") && path.equals("/stats")) {
        byte[] text = stats().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, text.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(text);
        }
      } else {
        other.incrementAndGet();
        exchange.getRequestBody().readAllBytes();
        exchange.sendResponseHeaders(404, -1);
      }
    }
  }

  private void count(byte[] body, String encoding) {
    try {
      byte[] raw = body;
      if ("gzip".equalsIgnoreCase(encoding)) {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(body))) {
          raw = in.readAllBytes();
        }
      }
      spans.addAndGet(SpanCount.of(raw));
    } catch (IOException | IllegalArgumentException e) {
      undecodable.incrementAndGet();
    }
  }
}
