package dev.onceonly.relay.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A provider the tests control, behaving like a real idempotent API: the first call with a key
 * takes effect; the same key and body again is replayed without effect; a different body is refused
 * (422); a call while another with the same key is in progress is refused (409) and counted as an
 * overlap. Per key, tests script answers ({@link Step}) to inject faults.
 */
public final class ProviderStub {

  public static final String PORT_PROPERTY = "onceonly.relay.test.stub-port";

  private static ProviderStub instance;

  /** One call as the provider saw it. */
  public record Call(
      String path,
      String key,
      String body,
      Instant receivedAt,
      Instant answeredAt,
      int status,
      boolean effective) {}

  /**
   * A scripted answer. {@code status == 0} means "behave normally" (effect or replay); {@code
   * takeEffect} stores the effect before answering {@code status}; {@code hold} keeps the request
   * open (until {@link #releaseHeld()} or the hold ends); {@code whileHeld} runs at the end of the
   * hold, with the request still open.
   */
  public record Step(
      int status, String retryAfter, boolean takeEffect, Duration hold, Runnable whileHeld) {

    public static Step normal() {
      return new Step(0, null, false, Duration.ZERO, null);
    }

    public static Step status(int status) {
      return new Step(status, null, false, Duration.ZERO, null);
    }

    public static Step retryAfter(int status, String retryAfter) {
      return new Step(status, retryAfter, false, Duration.ZERO, null);
    }

    public static Step takeEffectThenFail() {
      return new Step(500, null, true, Duration.ZERO, null);
    }

    public Step held(Duration duration) {
      return new Step(status, retryAfter, takeEffect, duration, whileHeld);
    }

    public Step whileHeld(Runnable hook) {
      return new Step(status, retryAfter, takeEffect, hold, hook);
    }
  }

  private final HttpServer server;
  private final List<Call> calls = new ArrayList<>();
  private final Map<String, String> effects = new ConcurrentHashMap<>();
  private final Map<String, Deque<Step>> scripts = new ConcurrentHashMap<>();
  private final Map<String, Step> always = new ConcurrentHashMap<>();
  private final Map<String, Step> atPath = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> inProgress = new ConcurrentHashMap<>();
  private final Map<String, Deque<String>> traceParents = new ConcurrentHashMap<>();
  private final AtomicInteger overlaps = new AtomicInteger();
  private volatile CountDownLatch held = new CountDownLatch(1);

  private ProviderStub(int port) throws IOException {
    // Without it, headers and body leave in two segments and Nagle + delayed ACK add ~40 ms.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
    server.setExecutor(
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, "provider-stub");
              thread.setDaemon(true);
              return thread;
            }));
    server.createContext("/", this::handle);
    server.start();
  }

  /** The stub on the port the test resource gave the relay, started on first use. */
  public static synchronized ProviderStub get() {
    if (instance == null) {
      try {
        instance = new ProviderStub(Integer.getInteger(PORT_PROPERTY));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return instance;
  }

  /** Answers the next calls with {@code key} in this order, then normally. */
  public void script(String key, Step... steps) {
    scripts.computeIfAbsent(key, k -> new ConcurrentLinkedDeque<>()).addAll(List.of(steps));
  }

  /** Answers every call with {@code key} this way (after any script). */
  public void always(String key, Step step) {
    always.put(key, step);
  }

  /**
   * Answers every call to {@code path} this way unless its key has a script or an {@link #always}
   * step: a whole API slow, hanging or down. {@code null} restores normal answers.
   */
  public void alwaysAt(String path, Step step) {
    if (step == null) {
      atPath.remove(path);
    } else {
      atPath.put(path, step);
    }
  }

  /** Lets every held request go on, now and for holds that start later until the next hold. */
  public void releaseHeld() {
    CountDownLatch current = held;
    held = new CountDownLatch(1);
    current.countDown();
  }

  public synchronized List<Call> calls(String key) {
    return calls.stream().filter(c -> key.equals(c.key())).collect(Collectors.toList());
  }

  public synchronized List<Call> calls(Predicate<String> keys) {
    return calls.stream().filter(c -> keys.test(c.key())).collect(Collectors.toList());
  }

  public long effectiveCalls(Predicate<String> keys) {
    return calls(keys).stream().filter(Call::effective).count();
  }

  /** The {@code traceparent} header of each call with {@code key} ("null" when it had none). */
  public List<String> traceParents(String key) {
    return List.copyOf(traceParents.getOrDefault(key, new ConcurrentLinkedDeque<>()));
  }

  /** Whether a call with {@code key} is being handled (e.g. held) right now. */
  public boolean inProgress(String key) {
    AtomicInteger running = inProgress.get(key);
    return running != null && running.get() > 0;
  }

  /** Calls that arrived while another call with the same key was still in progress. */
  public int overlaps() {
    return overlaps.get();
  }

  /** Calls the stub the way a relay would, e.g. to stand for a relay that died after calling. */
  public int post(String path, String key, String body) {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
            .header("Idempotency-Key", key)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      return HttpClient.newHttpClient()
          .send(request, HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    Instant received = Instant.now();
    String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
    if (key != null) {
      traceParents
          .computeIfAbsent(key, k -> new ConcurrentLinkedDeque<>())
          .add(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
    }
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    if (key == null) {
      answer(exchange, new Call(path(exchange), null, body, received, null, 400, false), null);
      return;
    }
    AtomicInteger running = inProgress.computeIfAbsent(key, k -> new AtomicInteger());
    try {
      if (running.incrementAndGet() > 1) {
        overlaps.incrementAndGet();
        answer(exchange, new Call(path(exchange), key, body, received, null, 409, false), null);
        return;
      }
      Step step = next(key, path(exchange));
      if (!step.hold().isZero()) {
        awaitRelease(step.hold());
      }
      if (step.whileHeld() != null) {
        step.whileHeld().run();
      }
      boolean effective = false;
      int status = step.status();
      if (status == 0 || step.takeEffect()) {
        String stored = effects.putIfAbsent(key, body);
        effective = stored == null;
        if (status == 0) {
          status = stored == null || stored.equals(body) ? 200 : 422;
        }
      }
      Call call = new Call(path(exchange), key, body, received, null, status, effective);
      answer(exchange, call, step.retryAfter());
    } finally {
      running.decrementAndGet();
    }
  }

  private Step next(String key, String path) {
    Deque<Step> script = scripts.get(key);
    Step scripted = script == null ? null : script.poll();
    if (scripted != null) {
      return scripted;
    }
    Step forKey = always.get(key);
    return forKey != null ? forKey : atPath.getOrDefault(path, Step.normal());
  }

  private void awaitRelease(Duration hold) {
    try {
      held.await(hold.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void answer(HttpExchange exchange, Call call, String retryAfter) throws IOException {
    Call answered =
        new Call(
            call.path(),
            call.key(),
            call.body(),
            call.receivedAt(),
            Instant.now(),
            call.status(),
            call.effective());
    synchronized (this) {
      calls.add(answered);
    }
    byte[] response =
        ("{\"replayed\":" + (call.status() == 200 && !call.effective()) + "}")
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    if (retryAfter != null) {
      exchange.getResponseHeaders().add("Retry-After", retryAfter);
    }
    try {
      exchange.sendResponseHeaders(call.status(), response.length);
      exchange.getResponseBody().write(response);
    } catch (IOException e) {
      // the caller gave up (timeout, shutdown): the effect, if any, stays taken
    } finally {
      exchange.close();
    }
  }

  private static String path(HttpExchange exchange) {
    return exchange.getRequestURI().getPath();
  }
}
