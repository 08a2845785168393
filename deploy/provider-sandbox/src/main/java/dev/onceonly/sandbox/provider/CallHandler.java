package dev.onceonly.sandbox.provider;

import dev.onceonly.sandbox.fault.Fault;
import dev.onceonly.sandbox.fault.FaultDecision;
import dev.onceonly.sandbox.fault.FaultSwitch;
import dev.onceonly.sandbox.idempotency.CanonicalJson;
import dev.onceonly.sandbox.idempotency.Effect;
import dev.onceonly.sandbox.idempotency.Slot;
import dev.onceonly.sandbox.idempotency.StoredResponse;
import dev.onceonly.sandbox.stats.CallLog;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One provider call, as a real provider honouring {@code Idempotency-Key} would handle it:
 *
 * <ol>
 *   <li>no key or no JSON body: 400;
 *   <li>an injected error (5xx) or throttle (429) answers before anything is stored;
 *   <li>the key is claimed with an atomic put-if-absent of a placeholder; the first call takes the
 *       effect when its (injected) latency is over and stores its answer;
 *   <li>a later call with the key: 409 while the first is in flight, 422 with another body, else
 *       the stored answer replayed;
 *   <li>after an effect or a replay, an injected hang, 500 or dropped connection may follow.
 * </ol>
 *
 * <p>Plain {@link CompletableFuture}s and a {@code @Singleton}: a provider call is the sandbox's
 * hot path when a benchmark drives the relay on the same machine, and Mutiny's context propagation
 * and the client proxies of application-scoped beans cost CPU on every call.
 */
@Singleton
public class CallHandler {

  private final SandboxState state;
  private final FaultSwitch faults;
  private final CanonicalJson json;
  private final Replies replies;
  private final Delays delays;
  private final WebhookVerifier webhooks;

  public CallHandler(
      SandboxState state,
      FaultSwitch faults,
      CanonicalJson json,
      Replies replies,
      Delays delays,
      WebhookVerifier webhooks) {
    this.state = state;
    this.faults = faults;
    this.json = json;
    this.replies = replies;
    this.delays = delays;
    this.webhooks = webhooks;
  }

  /**
   * A call to the webhook receiver: refused (400, 401) unless its Standard Webhooks signature is
   * valid and fresh; then handled like any provider call with {@code webhook-id} as its key, so a
   * repeated delivery is replayed, not taken twice.
   */
  public CompletableFuture<Reply> handleWebhook(
      String id, String timestamp, String signatures, String traceparent, byte[] body) {
    ApiState s = state.of(Api.WEBHOOKS);
    Optional<WebhookVerifier.Refusal> refusal =
        webhooks.check(id, timestamp, signatures, body, System.currentTimeMillis() / 1000);
    if (refusal.isPresent()) {
      s.stats().rawCall();
      WebhookVerifier.Refusal r = refusal.get();
      Reply refused = refuse(s, r.status(), r.slug(), "Webhook refused", r.detail(), id);
      s.stats().outcome(refused.outcome());
      return CompletableFuture.completedFuture(refused);
    }
    return handle(Api.WEBHOOKS, id, traceparent, body);
  }

  /** {@code traceparent}: the caller's W3C trace context header, recorded with the call. */
  public CompletableFuture<Reply> handle(Api api, String key, String traceparent, byte[] body) {
    ApiState s = state.of(api);
    s.stats().rawCall();
    if (key == null || key.isBlank()) {
      Reply refused =
          refuse(
              s,
              400,
              "missing-idempotency-key",
              "Idempotency-Key required",
              "Send a non-blank Idempotency-Key header, the same one on every retry.",
              null);
      s.stats().outcome(refused.outcome());
      return CompletableFuture.completedFuture(refused);
    }
    CallLog.Received call = s.calls().received(key, System.currentTimeMillis(), traceparent);
    // Like a real provider, the call is finished even if the caller hangs up (timeout, disconnect):
    // nothing here is cancelled with the request.
    return respond(s, key, body, call.number())
        .thenApply(
            reply -> {
              call.calls().answered(System.currentTimeMillis(), reply.outcome());
              s.stats().outcome(reply.outcome());
              return reply;
            });
  }

  private CompletableFuture<Reply> respond(ApiState s, String key, byte[] body, int callNumber) {
    byte[] canonical;
    try {
      canonical = json.canonicalize(body);
    } catch (IOException e) {
      return CompletableFuture.completedFuture(
          refuse(s, 400, "invalid-body", "Body is not JSON", e.getMessage(), key));
    }
    FaultDecision d = faults.decide(s.api(), key, callNumber);
    if (d.latencyMs() > 0) {
      s.stats().latencyInjected();
    }
    if (d.fault() == Fault.HANG && d.hangBeforeEffect()) {
      // A provider that answers nothing: no effect, no answer, the connection closed at the end.
      s.stats().injected(Fault.HANG);
      return delays.after(d.hangMs(), replies::stalled);
    }
    if (d.fault() == Fault.ERROR || d.fault() == Fault.THROTTLE) {
      s.stats().injected(d.fault());
      return delays.after(
          d.latencyMs(),
          () ->
              d.fault() == Fault.ERROR
                  ? replies.injectedError(d.errorStatus(), key)
                  : replies.throttled(d.retryAfterSeconds(), key));
    }
    Slot mine = new Slot(canonical);
    Slot existing = s.store().claim(key, mine);
    if (existing == null) {
      return delays
          .after(d.latencyMs(), () -> takeEffect(s, key, canonical, mine))
          .whenComplete(
              (reply, failure) -> {
                if (failure != null) {
                  s.store().release(key, mine);
                }
              })
          .thenCompose(reply -> afterEffect(s, reply, d, key));
    }
    Reply answer;
    if (existing.inFlight()) {
      answer =
          refuse(
              s,
              409,
              "request-in-flight",
              "Request in flight",
              "A request with this key is still being processed; retry later.",
              key);
    } else if (!existing.sameBody(canonical)) {
      answer =
          refuse(
              s,
              422,
              "key-reused-with-other-body",
              "Idempotency-Key reused",
              "This key was first used with a different body; it is not taken again.",
              key);
    } else {
      s.stats().replay();
      return delays
          .after(d.latencyMs(), () -> replies.replayed(existing.response()))
          .thenCompose(reply -> afterEffect(s, reply, d, key));
    }
    return delays.after(d.latencyMs(), () -> answer);
  }

  private Reply takeEffect(ApiState s, String key, byte[] canonical, Slot claimed) {
    Api api = s.api();
    long number = s.nextEffectNumber();
    Effect effect =
        new Effect(api.idPrefix() + number, api.path(), key, canonical, Instant.now(), number);
    StoredResponse response = replies.accepted(api, effect);
    s.store().complete(claimed, effect, response);
    s.stats().effect();
    return replies.created(response);
  }

  private CompletableFuture<Reply> afterEffect(
      ApiState s, Reply reply, FaultDecision d, String key) {
    switch (d.fault()) {
      case HANG:
        s.stats().injected(Fault.HANG);
        return delays.after(d.hangMs(), () -> reply.withOutcome("hang-" + reply.outcome()));
      case EFFECT_THEN_500:
        s.stats().injected(Fault.EFFECT_THEN_500);
        return CompletableFuture.completedFuture(replies.effectThen500(key));
      case EFFECT_THEN_DROP:
        s.stats().injected(Fault.EFFECT_THEN_DROP);
        return CompletableFuture.completedFuture(replies.dropped());
      default:
        return CompletableFuture.completedFuture(reply);
    }
  }

  private Reply refuse(
      ApiState s, int status, String slug, String title, String detail, String key) {
    s.stats().refusal(status);
    return replies.refusal(status, slug, title, detail, key);
  }
}
